/// Who may stand for leader: only a member holding the latest published dataset version, or, before anything is
/// published, the highest version among the registered members. So a fresh or empty member catches up before
/// it can lead, and a leader never publishes a fleet backwards.
public enum CampaignRule {
    public static func mayCampaign(holding held: UInt64, published: UInt64?, members: [UInt64]) -> Bool {
        if let published { return held >= published }
        return held >= (members.max() ?? 0)
    }
}
