import Mischief

extension Console {
    /// A key in the profile list (``KeyBindings/profileList``): arrows choose, Space or Enter switches the chosen
    /// profile, a digit the profile with that key, Esc closes.
    static func profileListKey(_ key: Key, selected: Int, in state: inout ConsoleState) -> [ConsoleCommand] {
        let profiles = state.data?.profiles ?? []
        let selected = max(0, min(selected, profiles.count - 1))
        switch KeyBindings.profileList[key] {
        case .close:
            state.mode = .browse
        case .toggle:
            guard profiles.indices.contains(selected) else { return [] }
            return [.toggleProfile(profiles[selected].profile.name)]
        case .profileKey:
            guard case .character(let digit) = key, let number = Int(String(digit)) else { return [] }
            return toggleProfile(key: number, in: &state)
        case .move(let navigation):
            let page = max(1, (state.size.rows - 3) / 2)
            state.mode = .profileList(
                selected: navigation.movement(page: page).applied(to: selected, limit: profiles.count - 1))
        case nil:
            break
        }
        return []
    }
}
