import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where seam cores keep their counter lines: 1 KiB blocks carved from large anonymous mappings, which the kernel
/// fills with zeros the first time a page of them is touched.
///
/// A seam nobody calls never writes its lines (``SeamCore/counters()`` reads only the shards a call marked used), so
/// its block costs address space and no memory: in a registry of many seams, most are never called, and their 16
/// lines were a kilobyte each of resident memory that held zeros. Nothing on the call path changes: a core's
/// `lines` is still one pointer fixed at init, and a block is already zero, so nothing writes it before the first
/// call. A freed block is zeroed and kept for the next core; mappings are never returned.
enum CounterArena {
    /// The bytes of one core's lines.
    static let blockBytes = SeamCore.shardCount * SeamCore.slotsPerShard * MemoryLayout<UInt64>.stride
    /// Blocks a mapping holds (4 MiB of address space).
    static let blocksPerMapping = 4_096

    private struct Blocks: @unchecked Sendable {
        // @unchecked: raw addresses of blocks no core uses, only touched under the lock.
        /// Freed blocks, zeroed.
        var free: [UnsafeMutableRawPointer] = []
        /// The mapping blocks are carved from, and how many have been.
        var mapping: UnsafeMutableRawPointer?
        var carved = blocksPerMapping
    }

    private static let blocks = Locked(Blocks())

    /// A block of zeros for a new core's lines, aligned to a cache line.
    static func allocate() -> UnsafeMutableRawPointer {
        blocks.withLock { blocks in
            if let block = blocks.free.popLast() { return block }
            if blocks.carved == blocksPerMapping {
                blocks.mapping = map(blockBytes * blocksPerMapping)
                blocks.carved = 0
            }
            let block = blocks.mapping! + blocks.carved * blockBytes
            blocks.carved += 1
            return block
        }
    }

    /// Takes back a block no call can reach any more (its core is going).
    static func release(_ block: UnsafeMutableRawPointer) {
        memset(block, 0, blockBytes)
        blocks.withLock { $0.free.append(block) }
    }

    private static func map(_ bytes: Int) -> UnsafeMutableRawPointer {
        #if canImport(Glibc)
            let anonymous = MAP_ANONYMOUS
        #else
            let anonymous = MAP_ANON
        #endif
        let address = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | anonymous, -1, 0)
        guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else {
            fatalError("Mischief: mmap of \(bytes) bytes for seam counters failed: \(String(cString: strerror(errno)))")
        }
        return address
    }
}
