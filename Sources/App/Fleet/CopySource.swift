import Coordination
import Foundation
import HTTP

/// Where a fleet follower may download a published dataset from, decided before any connection: only from the
/// member that holds the leader key the pointer's token names (the pointer's epoch is the leader key's, its URL
/// under the leader's), only from a host `PETTY_FOLLOWERS` allows or a registered member advertises, over
/// http(s), and never from a URL carrying credentials (they would be sent as a Basic `Authorization` header).
/// Anyone who can write the fleet's keys can write a pointer; this keeps them from naming a host of their own.
struct CopySource {
    /// The leader key as last read: its epoch and the URL it advertises.
    var leaderEpoch: Int64
    var leaderURL: String?
    /// `PETTY_FOLLOWERS`: the addresses members have (they may read each other's `/internal/v1/dataset`).
    var allowed: [IPAddressRange]
    /// The registered members' advertised URLs.
    var memberURLs: [String]

    func refusal(of pointer: DatasetPointer) -> String? {
        guard let url = URLComponents(string: pointer.url), let host = url.host, !host.isEmpty,
              ["http", "https"].contains(url.scheme?.lowercased() ?? "")
        else { return "the pointer's URL is not an http(s) URL" }
        if url.user != nil || url.password != nil { return "the pointer's URL carries credentials (not contacted)" }
        guard pointer.epoch == leaderEpoch, let leaderURL,
              CampaignRule.publisherRegistered(pointerURL: pointer.url, memberURLs: [leaderURL])
        else {
            return pointer.epoch == leaderEpoch
                ? "the pointer's URL is not under the leader's advertised \(CopySource.redacted(leaderURL ?? "(none)")); not contacted"
                : "the pointer (epoch \(pointer.epoch)) is not the current leader's (epoch \(leaderEpoch)); not contacted"
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let byAddress = IPAddress(bare).map { address in allowed.contains { $0.contains(address) } } ?? false
        let byMember = memberURLs.contains { URLComponents(string: $0)?.host?.lowercased() == host.lowercased() }
        guard byAddress || byMember else { return "the pointer's host \(host) is neither in PETTY_FOLLOWERS nor a member's; not contacted" }
        return nil
    }

    /// `url` without its userinfo, for logs.
    static func redacted(_ url: String) -> String {
        guard var parts = URLComponents(string: url), parts.user != nil || parts.password != nil else { return url }
        parts.user = nil
        parts.password = nil
        return parts.string ?? "(a URL with credentials)"
    }
}
