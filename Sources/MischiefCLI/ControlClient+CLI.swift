import MischiefControl

extension ControlClient {
    /// The name the CLI's requests carry (`Mischief-Client`): what it changes without a session has this source in
    /// the target's events and layers, not `api`.
    static let cliName = "mischief CLI"

    /// A client as the CLI makes one: it names itself.
    static func cli(socketPath: String) -> ControlClient {
        var client = ControlClient(socketPath: socketPath)
        client.name = cliName
        return client
    }
}
