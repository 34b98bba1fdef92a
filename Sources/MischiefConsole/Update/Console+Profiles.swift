import Mischief

extension Console {
    /// A key in the profile list: arrows choose, Space or Enter switches the chosen profile, Esc closes.
    static func profileListKey(_ key: Key, selected: Int, in state: inout ConsoleState) -> [ConsoleCommand] {
        let profiles = state.data?.profiles ?? []
        let selected = max(0, min(selected, profiles.count - 1))
        switch key {
        case .escape, .character("p"), .character("q"):
            state.mode = .browse
        case .character(" "), .enter:
            guard profiles.indices.contains(selected) else { return [] }
            return [.toggleProfile(profiles[selected].profile.name)]
        case .character(let digit) where ("1"..."9").contains(digit):
            return toggleProfile(key: Int(String(digit))!, in: &state)
        default:
            let page = max(1, (state.size.rows - 3) / 2)
            if let movement = movement(for: key, page: page) {
                state.mode = .profileList(selected: movement.applied(to: selected, limit: profiles.count - 1))
            }
        }
        return []
    }
}
