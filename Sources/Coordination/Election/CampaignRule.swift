/// Who may stand for leader: only a member holding the latest published dataset version, or, before anything is
/// published, the highest version among the registered members. So a fresh or empty member catches up before
/// it can lead, and a leader never publishes a fleet backwards.
///
/// A published version nobody can copy does not count: when its publisher is no longer a registered member (it
/// died right after publishing, before any follower copied it), waiting for it would leave the fleet without a
/// leader until that machine is restarted. The highest version among the live members decides instead (never an
/// empty member: it would lead a fleet from nothing); the new leader publishes under a newer epoch, which followers
/// (and the old leader, if it returns) take even at a lower version.
///
/// Live data outranks samples: a member holding only the bundled sample data never leads a fleet that has held live
/// data (the pointer says its publisher held live data, or a registered member holds some), whatever the versions
/// say; after etcd is rebuilt from nothing, a stale member serving samples would otherwise publish them over the
/// fleet's data.
public enum CampaignRule {
    public static func mayCampaign(
        holding held: UInt64, holdsLive: Bool = true, published: UInt64?, publishedLive: Bool = false,
        publisherRegistered: Bool = true, members: [UInt64], liveMembers: Bool = false
    ) -> Bool {
        if !holdsLive, publishedLive || liveMembers { return false }
        guard let published else { return held >= (members.max() ?? 0) }
        if publisherRegistered { return held >= published }
        return held > 0 && held >= (members.max() ?? 0)
    }

    /// Whether `pointerURL` (the publisher's dataset URL) lies under one of the registered members' URLs.
    public static func publisherRegistered(pointerURL: String, memberURLs: some Sequence<String>) -> Bool {
        memberURLs.contains { url in
            let base = url.hasSuffix("/") ? url : url + "/"
            return pointerURL == url || pointerURL.hasPrefix(base)
        }
    }
}
