import Testing
@testable import Coordination

/// The election as a pure state machine: times are seconds on an injected monotonic clock, nothing sleeps.
struct ElectionTests {
    /// A lease of 10 s granted at t=100 (margin 20 %): the leader may act until t=108, not at 108.
    func leading(at now: Double = 100) -> Election {
        var election = Election(marginFraction: 0.2)
        election.granted(lease: 7, ttl: 10, sentAt: now)
        #expect(election.won(epoch: 42, at: now) == .elected(epoch: 42))
        return election
    }

    @Test func aLeaderMayActUntilTheDeadlineAndNotFromIt() {
        var election = leading()
        #expect(election.mayAct(at: 107.99))
        #expect(!election.mayAct(at: 108))
        #expect(election.tick(at: 107.99) == nil)
        #expect(election.tick(at: 108) == .steppedDown(reason: "the lease deadline passed without a keep-alive"))
        #expect(election.role == .follower)
    }

    @Test func aRenewalMovesTheDeadlineFromItsSendTime() {
        var election = leading()
        #expect(election.renewed(ttl: 10, sentAt: 103) == nil)
        #expect(election.mayAct(at: 110.99))
        #expect(!election.mayAct(at: 111))
    }

    @Test func aLateAnswerToAnOlderKeepAliveNeverMovesTheDeadlineBack() {
        var election = leading()
        _ = election.renewed(ttl: 10, sentAt: 105)
        _ = election.renewed(ttl: 10, sentAt: 103)
        #expect(election.mayAct(at: 112.9))
    }

    @Test func aKeepAliveWithoutTTLEndsTheLeadershipAndTheLease() {
        var election = leading()
        #expect(election.renewed(ttl: 0, sentAt: 101) == .steppedDown(reason: "the lease expired (keep-alive answered without a TTL)"))
        #expect(election.lease == nil)
        #expect(!election.mayAct(at: 101))
    }

    @Test func aRefusedGuardedWriteEndsTheLeadership() {
        var election = leading()
        #expect(election.guardedWriteRefused() != nil)
        #expect(!election.mayAct(at: 100.5))
    }

    @Test func seeingAnotherEpochOrNoLeaderKeyEndsTheLeadership() {
        var other = leading()
        #expect(other.observed(leaderEpoch: 42) == nil)
        #expect(other.observed(leaderEpoch: 43) == .steppedDown(reason: "another member leads (epoch 43)"))
        var gone = leading()
        #expect(gone.observed(leaderEpoch: nil) == .steppedDown(reason: "the leader key is gone"))
    }

    @Test func aCampaignWonAfterTheDeadlineDoesNotLead() {
        var election = Election(marginFraction: 0.2)
        election.granted(lease: 7, ttl: 10, sentAt: 100)
        #expect(election.won(epoch: 42, at: 108) == nil)
        #expect(election.role == .follower)
        var leaseless = Election()
        #expect(leaseless.won(epoch: 42, at: 0) == nil)
    }

    @Test func theLeaseIsDroppedOnceItsTTLHasPassedEvenForAFollower() {
        var election = Election(marginFraction: 0.2)
        election.granted(lease: 7, ttl: 10, sentAt: 100)
        _ = election.tick(at: 109.99)
        #expect(election.lease == 7)
        _ = election.tick(at: 110)
        #expect(election.lease == nil)
    }

    @Test func onlyAMemberHoldingThePublishedVersionMayCampaign() {
        #expect(CampaignRule.mayCampaign(holding: 9, published: 9, members: [12]))
        #expect(CampaignRule.mayCampaign(holding: 10, published: 9, members: []))
        #expect(!CampaignRule.mayCampaign(holding: 8, published: 9, members: []))
        // Nothing published yet: the highest version among the members.
        #expect(CampaignRule.mayCampaign(holding: 5, published: nil, members: [5, 3]))
        #expect(!CampaignRule.mayCampaign(holding: 4, published: nil, members: [5, 3]))
        #expect(CampaignRule.mayCampaign(holding: 0, published: nil, members: []))
    }

    /// The leader died right after publishing v8, before any follower copied it: nobody can ever hold v8, so the
    /// live members' highest version decides instead of waiting for that machine to return.
    @Test func aVersionWhosePublisherIsGoneDoesNotBlockTheCampaign() {
        #expect(!CampaignRule.mayCampaign(holding: 7, published: 8, publisherRegistered: true, members: [7, 7]))
        #expect(CampaignRule.mayCampaign(holding: 7, published: 8, publisherRegistered: false, members: [7, 7]))
        #expect(!CampaignRule.mayCampaign(holding: 6, published: 8, publisherRegistered: false, members: [7, 6]))
        // An empty member never leads a fleet that has published something, whoever is gone.
        #expect(!CampaignRule.mayCampaign(holding: 0, published: 8, publisherRegistered: false, members: [0]))
    }

    @Test func thePublisherIsRecognisedByItsAdvertisedURL() {
        let members = ["http://10.0.0.1:8080", "http://10.0.0.2:8080/"]
        #expect(CampaignRule.publisherRegistered(pointerURL: "http://10.0.0.1:8080/internal/v1/dataset", memberURLs: members))
        #expect(CampaignRule.publisherRegistered(pointerURL: "http://10.0.0.2:8080/internal/v1/dataset", memberURLs: members))
        // A longer port is another member, not a path under this one.
        #expect(!CampaignRule.publisherRegistered(pointerURL: "http://10.0.0.1:80801/internal/v1/dataset", memberURLs: members))
        #expect(!CampaignRule.publisherRegistered(pointerURL: "http://10.0.0.3:8080/internal/v1/dataset", memberURLs: members))
    }
}

extension ElectionTests {
    @Test func samplesNeverLeadAFleetThatHasHeldLiveData() {
        #expect(!CampaignRule.mayCampaign(holding: 40, holdsLive: false, published: nil, members: [40, 12], liveMembers: true))
        #expect(!CampaignRule.mayCampaign(holding: 40, holdsLive: false, published: 9, publishedLive: true, publisherRegistered: false, members: [40]))
        #expect(CampaignRule.mayCampaign(holding: 40, holdsLive: false, published: nil, members: [40]), "a fleet of samples only: someone must poll")
    }
}
