import Fuel
import Testing
@testable import Providers

@Suite struct AddressParserTests {
    @Test(arguments: [
        ("307-313 Ocean Beach Road, UMINA BEACH NSW 2257", "307-313 Ocean Beach Road", "Umina Beach", AustralianState?.some(.NSW), "2257"),
        ("6 GOLD CREEK RD, NICHOLLS ACT 2913", "6 GOLD CREEK RD", "Nicholls", .ACT, "2913"),
        ("85 Burnt Creek Drive, Bungalally, 3401", "85 Burnt Creek Drive", "Bungalally", nil, "3401"),
        ("52 Hill Street, Uralla, NSW  2358, AU", "52 Hill Street", "Uralla", .NSW, "2358"),
        ("4467 Gywdir Highway, JACKADGERY NSW AUSTRALIA 2460", "4467 Gywdir Highway", "Jackadgery", .NSW, "2460"),
        ("456, Metford Road, Metford NEW SOUTH WALES 2323", "456, Metford Road", "Metford", .NSW, "2323"),
        ("94 Sturt Hwy BALRANALD NSW 2715", "94 Sturt Hwy", "Balranald", .NSW, "2715"),
        ("Avonside NSW 2628", "Avonside", "Avonside", .NSW, "2628"),
        ("1 Hay St, PERTH WESTERN AUSTRALIA 6000", "1 Hay St", "Perth", .WA, "6000"),
        ("827 Anzac Parade Maroubra NSW 2035", "827 Anzac Parade Maroubra", "", .NSW, "2035"),
        ("7A SYDNEY RD Mudgee NSW 2850", "7A SYDNEY RD", "Mudgee", .NSW, "2850"),
        ("842-844 DAVID ST North Albury NSW 2640", "842-844 DAVID ST", "North Albury", .NSW, "2640"),
        ("Shop 3, 1190 Miami Street Glenwood NSW 2768", "Shop 3, 1190 Miami Street Glenwood", "", .NSW, "2768"),
        ("Corner Pacific Hwy and Halls Road Coffs Harbour NSW 2450", "Corner Pacific Hwy and Halls Road Coffs Harbour", "", .NSW, "2450"),
        ("Wagga Wagga NSW 2650", "Wagga Wagga", "Wagga Wagga", .NSW, "2650"),
        ("131  BROUGHTON Street, Alberton, 3971", "131 BROUGHTON Street", "Alberton", nil, "3971"),
    ])
    func addressesSplitFromTheEnd(address: String, street: String, suburb: String, state: AustralianState?, postcode: String) {
        let parts = AddressParser.parse(address)
        #expect(parts.street == street)
        #expect(parts.suburb == suburb)
        #expect(parts.state == state)
        #expect(parts.postcode == postcode)
    }

    @Test func shoutedSuburbsAreTitleCasedAndOthersLeftAlone() {
        #expect(AddressParser.normalisedSuburb("ST IVES") == "St Ives")
        #expect(AddressParser.normalisedSuburb("O'CONNOR") == "O'Connor")
        #expect(AddressParser.normalisedSuburb("KALGOORLIE-BOULDER") == "Kalgoorlie-Boulder")
        #expect(AddressParser.normalisedSuburb("McKinnon") == "McKinnon")
    }

    @Test func abbreviationsLoseTheirFullStopSoOneSuburbHasOneName() {
        #expect(AddressParser.normalisedSuburb("St. Kilda") == "St Kilda")
        #expect(AddressParser.normalisedSuburb("ST. KILDA EAST") == "St Kilda East")
        #expect(AddressParser.normalisedSuburb("Mt. Druitt") == "Mt Druitt")
        #expect(AddressParser.normalisedSuburb("St Kilda") == "St Kilda")
        #expect(AddressParser.normalisedSuburb("Port Melbourne.") == "Port Melbourne.")
    }

    @Test func actPostcodesAreRecognised() {
        #expect(AddressParser.isACTPostcode("2600"))
        #expect(AddressParser.isACTPostcode("2913"))
        #expect(!AddressParser.isACTPostcode("2620"))
        #expect(!AddressParser.isACTPostcode(nil))
    }
}
