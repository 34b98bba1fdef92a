#if os(Linux)
    import CMischiefRebind
    import Testing

    /// The relocation scan on dynamic sections no loader made, read as x86_64's and as aarch64's: both machines'
    /// JUMP_SLOT and GLOB_DAT types are checked here, on whichever machine runs the tests (aarch64's are otherwise
    /// only compiled, by `Scripts/cross-compile.sh`).
    @Suite("GOT slots found in synthetic tables of both machines")
    struct SyntheticTableTests {
        /// A machine's ELF number and the relocation types the scan must take and leave.
        struct Machine: CustomStringConvertible {
            let name: String
            let number: Int32
            let jumpSlot: UInt64
            let globDat: UInt64
            /// A relocation of a symbol that is not a GOT slot (an absolute address in data).
            let absolute: UInt64
            var description: String { name }

            static let x86_64 = Machine(name: "x86_64", number: 62, jumpSlot: 7, globDat: 6, absolute: 1)
            static let aarch64 = Machine(name: "aarch64", number: 183, jumpSlot: 1026, globDat: 1025, absolute: 257)
        }

        /// One synthetic object in a buffer of its own: string and symbol tables, PLT and other RELA relocations, a
        /// dynamic section whose addresses are relative to the buffer (as loaders that keep it read-only leave them),
        /// and the slots themselves at `slotBase`.
        final class Table {
            static let size = 4096
            static let slotBase = 2048
            let base = UnsafeMutableRawPointer.allocate(byteCount: Table.size, alignment: 16)

            /// Symbols: 1 `clock_gettime`, 2 `time`, 3 `getaddrinfo`. `plt` and `other` are (slot index, symbol,
            /// type); `otherCoversPLT` makes DT_RELA start at the PLT relocations and cover them too, as some linkers
            /// write it.
            init(plt: [(Int, UInt64, UInt64)], other: [(Int, UInt64, UInt64)], otherCoversPLT: Bool = false) {
                base.initializeMemory(as: UInt8.self, repeating: 0, count: Table.size)
                let strings = Array("\0clock_gettime\0time\0getaddrinfo\0".utf8)
                base.copyMemory(from: strings, byteCount: strings.count)
                for (index, name) in [(1, 1), (2, 15), (3, 20)] {  // Elf64_Sym: st_name first, 24 bytes each
                    base.storeBytes(of: UInt32(name), toByteOffset: 256 + 24 * index, as: UInt32.self)
                }
                // Elf64_Rela: r_offset, r_info = symbol << 32 | type, r_addend.
                func write(_ entries: [(Int, UInt64, UInt64)], at offset: Int) {
                    for (index, entry) in entries.enumerated() {
                        let at = offset + 24 * index
                        base.storeBytes(of: UInt64(Table.slotBase + 8 * entry.0), toByteOffset: at, as: UInt64.self)
                        base.storeBytes(of: entry.1 << 32 | entry.2, toByteOffset: at + 8, as: UInt64.self)
                    }
                }
                write(plt, at: 512)
                let otherStart = otherCoversPLT ? 512 : 512 + 24 * plt.count
                write(other, at: 512 + 24 * plt.count)
                let dynamic: [(Int64, UInt64)] = [
                    (5, 0), (6, 256), (10, UInt64(strings.count)),  // DT_STRTAB, DT_SYMTAB, DT_STRSZ
                    (23, 512), (2, UInt64(24 * plt.count)), (20, 7),  // DT_JMPREL, DT_PLTRELSZ, DT_PLTREL = DT_RELA
                    // DT_RELA, DT_RELASZ
                    (7, UInt64(otherStart)), (8, UInt64(512 + 24 * (plt.count + other.count) - otherStart)),
                    (9, 24), (0, 0),  // DT_RELAENT, DT_NULL
                ]
                for (index, entry) in dynamic.enumerated() {
                    base.storeBytes(of: entry.0, toByteOffset: 1536 + 16 * index, as: Int64.self)
                    base.storeBytes(of: entry.1, toByteOffset: 1536 + 16 * index + 8, as: UInt64.self)
                }
            }

            deinit { base.deallocate() }

            /// The slot indexes the scan finds for `symbol`, read as `machine`'s relocations; nil when it refuses.
            func slots(of symbol: String, as machine: Int32) -> [Int]? {
                var found = [UnsafeMutableRawPointer?](repeating: nil, count: 16)
                let count = mischief_rebind_scan_dynamic(
                    machine, UInt(bitPattern: base), base + 1536, symbol, &found, 16)
                guard count >= 0 else { return nil }
                return found.prefix(Int(count)).map { (($0.map { $0 - base } ?? 0) - Table.slotBase) / 8 }
            }
        }

        /// A table of `machine`'s relocations, with the other machine's JUMP_SLOT and an absolute relocation among
        /// them as decoys: slots 0 and 2 are `clock_gettime`'s, 1 is `time`'s.
        static func table(of machine: Machine, decoy other: Machine, otherCoversPLT: Bool = false) -> Table {
            Table(
                plt: [(0, 1, machine.jumpSlot), (1, 2, machine.jumpSlot)],
                other: [(2, 1, machine.globDat), (3, 1, machine.absolute), (4, 1, other.jumpSlot), (5, 3, 0)],
                otherCoversPLT: otherCoversPLT)
        }

        @Test(arguments: [(Machine.x86_64, Machine.aarch64), (Machine.aarch64, Machine.x86_64)])
        func theScanTakesTheMachinesSlotTypesAndNothingElse(machine: Machine, other: Machine) {
            let table = Self.table(of: machine, decoy: other)
            #expect(table.slots(of: "clock_gettime", as: machine.number) == [0, 2])
            #expect(table.slots(of: "time", as: machine.number) == [1])
            #expect(table.slots(of: "getaddrinfo", as: machine.number) == [], "a type-0 relocation is no slot")
            // Read as the other machine's, only the decoy is a slot.
            #expect(table.slots(of: "clock_gettime", as: other.number) == [4])
        }

        @Test(arguments: [Machine.x86_64, Machine.aarch64])
        func relocationsThatCoverThePLTOnesTooAreSeenOnce(machine: Machine) {
            let other = machine.number == Machine.x86_64.number ? Machine.aarch64 : Machine.x86_64
            let table = Self.table(of: machine, decoy: other, otherCoversPLT: true)
            #expect(table.slots(of: "clock_gettime", as: machine.number) == [0, 2])
        }

        @Test func anotherMachineIsRefused() {
            let table = Self.table(of: .x86_64, decoy: .aarch64)
            #expect(table.slots(of: "time", as: 40) == nil, "EM_ARM: not a machine the scan knows")
        }
    }
#endif
