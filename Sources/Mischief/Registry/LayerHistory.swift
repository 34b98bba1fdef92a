extension Registry {
    /// The layers a registry keeps, active and recently reverted, by id; and which reverted ones go first when there
    /// are more than it keeps. A part of ``Registry/State``, under the registry's one lock.
    struct LayerHistory {
        /// Every layer kept, by id.
        private(set) var layers: [LayerID: LayerSnapshot] = [:]
        /// How many reverted layers are kept.
        let revertedLimit = 200
        /// Reverted layers in the order they became reverted (from `revertedHead` on), the oldest pruned first.
        private var revertedQueue: [LayerID] = []
        private var revertedHead = 0
        private var revertedCount = 0

        /// The layer with `id`, if kept.
        subscript(id: LayerID) -> LayerSnapshot? { layers[id] }

        /// How many layers are kept.
        var count: Int { layers.count }

        /// Every layer kept, in no order.
        var values: Dictionary<LayerID, LayerSnapshot>.Values { layers.values }

        /// Keeps `layer`, replacing the one with its id; returns the one replaced.
        mutating func set(_ layer: LayerSnapshot) -> LayerSnapshot? {
            layers.updateValue(layer, forKey: layer.id)
        }

        /// Forgets the layer with `id`; returns it.
        mutating func remove(_ id: LayerID) -> LayerSnapshot? {
            guard let old = layers.removeValue(forKey: id) else { return nil }
            if old.status == .reverted { revertedCount -= 1 }
            return old
        }

        /// Notes that the layer with `id` became reverted, so it is pruned in its turn.
        mutating func noteReverted(_ id: LayerID) {
            revertedQueue.append(id)
            revertedCount += 1
        }

        /// The next reverted layer to forget while more than ``revertedLimit`` are kept, oldest reverted first; nil
        /// when none is over the limit. The caller removes it (``remove(_:)``) with what else it touches.
        mutating func nextToPrune() -> LayerID? {
            while revertedCount > revertedLimit, revertedHead < revertedQueue.count {
                let id = revertedQueue[revertedHead]
                revertedHead += 1
                if layers[id]?.status == .reverted { return id }
            }
            if revertedHead > 64, revertedHead * 2 > revertedQueue.count {
                revertedQueue.removeFirst(revertedHead)
                revertedHead = 0
            }
            return nil
        }
    }
}
