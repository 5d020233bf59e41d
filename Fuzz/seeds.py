#!/usr/bin/env python3
"""Builds the committed seed corpora in Fuzz/corpus/<target>/ (deterministic; re-run after fixtures change).

    python3 Fuzz/seeds.py

- parser: valid and malformed requests modelled on Tests/HTTPTests/Parser*Tests.swift.
- query: query strings and paths modelled on QueryTests / PathNormalizerTests.
- adapters: the recorded payloads in Tests/ProvidersTests/Fixtures/, each whole when small and as trimmed
  variants (first rows only, one row, empty arrays, cut mid-document) when large, so the corpus stays small
  (the full NSW and VIC payloads are 2.5 MB each and are not copied).
- support: addresses and timestamps taken from the payloads.
"""
import hashlib
import json
import pathlib
import re
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "Tests/ProvidersTests/Fixtures"
# Payloads the server bundles as sample data are not copied into Fixtures/: read them where they live.
SAMPLE_DATA = ROOT / "Sources/Providers/SampleData"
CORPUS = ROOT / "Fuzz/corpus"


def write(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def fixture(name):
    path = FIXTURES / name
    if not path.exists():
        path = next(SAMPLE_DATA.rglob(name))
    return path.read_bytes()


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------------------------------------- parser
HEAD = "POST / HTTP/1.1\r\nHost: a\r\n"
CHUNKED = HEAD + "Transfer-Encoding: chunked\r\n\r\n"


def with_header(line):
    return "GET / HTTP/1.1\r\nHost: a\r\n" + line + "\r\n\r\n"


def request_line(line):
    return line + "\r\nHost: a\r\n\r\n"


REQUESTS = {
    # Valid.
    "get-query": "GET /v1/stations?state=NSW HTTP/1.1\r\nHost: example.com\r\n\r\n",
    "headers-dup": "GET / HTTP/1.1\r\nHost: a\r\nX-Tag: one\r\nAccept: */*\r\nx-tag: two\r\nX-Empty:\r\n\r\n",
    "ows": "GET / HTTP/1.1\r\nHost:\t a \r\nUser-Agent:  curl/8  x \t\r\n\r\n",
    "close": "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    "http10": "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n",
    "brew": "BREW /pot HTTP/1.1\r\nHost: a\r\n\r\n",
    "absolute": "GET HTTP://example.com:8080/a/b?x=1 HTTP/1.1\r\nHost: example.com\r\n\r\n",
    "absolute-bare": "GET https://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n",
    "options-star": "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
    "connect": "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
    "content-length": "POST /prices HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello world",
    "content-length-dup": "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\ncontent-length: 3\r\n\r\nabc",
    "chunked": "POST /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n"
    + "5;name=value\r\nhello\r\n1 ; quoted=\"a b\"\r\n \r\n00A\r\n0123456789\r\n0;last\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n",
    "chunked-empty-elements": "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: , chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
    "pipelined": "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi" + "GET /b HTTP/1.1\r\nHost: a\r\n\r\n"
    + "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\nGET /d",
    "leading-empty-lines": "\r\n\r\n\nGET /x HTTP/1.1\r\nHost: a\r\n\r\n",
    "bare-lf": "GET /x HTTP/1.1\nHost: a\nAccept: b\n\n",
    "paths": "GET /a/./b/../c//d/%2e%2E/e%2Ff/caf%C3%A9/ HTTP/1.1\r\nHost: a\r\n\r\n",
    "dotdot-root": "GET /../../x/.. HTTP/1.1\r\nHost: a\r\n\r\n",
    "query-only": "GET /?a=1&b=%20+x&&c HTTP/1.1\r\nHost: a\r\n\r\n",
    "expect": "PUT /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n",
    "partial-head": "GET /partial HTTP/1.1\r\nHost: a\r\nAccept: te",
    # Malformed (each is a case of ParserMalformedTests).
    "cl-and-te": HEAD + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "te-gzip-chunked": HEAD + "Transfer-Encoding: gzip, chunked\r\n\r\n",
    "te-chunked-twice": HEAD + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
    "te-http10": "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "cl-list": HEAD + "Content-Length: 5, 5\r\n\r\nabcde",
    "cl-overflow": HEAD + "Content-Length: 99999999999999999999999999\r\n\r\n",
    "chunk-overflow": CHUNKED + "ffffffffffffffffff\r\nabc\r\n",
    "chunk-0x": CHUNKED + "0x5\r\nabcde\r\n0\r\n\r\n",
    "chunk-no-crlf": CHUNKED + "3\r\nabcd\r\n0\r\n\r\n",
    "chunk-bare-lf": CHUNKED + "3\nabc\r\n0\r\n\r\n",
    "chunk-ext-ctl": CHUNKED + "3;a=\x01\r\nabc\r\n0\r\n\r\n",
    "trailer-fold": CHUNKED + "0\r\nX-T: a\r\n b\r\n\r\n",
    "trailer-bare-lf": CHUNKED + "0\r\nX-T: a\n\r\n",
    "obs-fold": with_header("X-A: one\r\n two"),
    "space-before-colon": with_header("X-A : one"),
    "no-colon": with_header("X-A one"),
    "empty-name": with_header(": one"),
    "bad-name": with_header("X(A): one"),
    "bare-cr-field": "GET / HTTP/1.1\r\nHost: a\rX-B: c\r\n\r\n",
    "bare-cr-line": "GET / HTTP/1.1\rHost: a\r\n\r\n",
    "no-host": "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n",
    "two-hosts": "GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n",
    "http2": request_line("GET / HTTP/2.0"),
    "h2-preface": "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    "lower-http": request_line("GET / http/1.1"),
    "double-space": request_line("GET  / HTTP/1.1"),
    "fragment": request_line("GET /a#frag HTTP/1.1"),
    "bad-escape": request_line("GET /%zz HTTP/1.1"),
    "nul-escape": request_line("GET /%00 HTTP/1.1"),
    "overlong-dot": request_line("GET /%c0%ae%c0%ae/etc HTTP/1.1"),
    "star-get": request_line("GET * HTTP/1.1"),
    "relative": request_line("GET path HTTP/1.1"),
    "connect-no-port": request_line("CONNECT example.com HTTP/1.1"),
    "userinfo": request_line("GET http://user@example.com/ HTTP/1.1"),
    "ftp": request_line("GET ftp://example.com/ HTTP/1.1"),
}
BINARY_REQUESTS = {
    "tls-hello": bytes([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]),
    "nul-value": b"GET / HTTP/1.1\r\nHost: a\r\nX-Value: a\x00b\r\n\r\n",
    "obs-text": b"GET / HTTP/1.1\r\nHost: a\r\nX-Name: caf\xc3\xa9\r\n\r\n",
    "non-ascii-target": b"GET /caf\xc3\xa9 HTTP/1.1\r\nHost: a\r\n\r\n",
    "non-ascii-name": b"GET / HTTP/1.1\r\nHost: a\r\nX\xc3\xa9: v\r\n\r\n",
}


def parser_seeds():
    for name, text in REQUESTS.items():
        write("parser", name, text.encode("latin-1"))
    for name, data in BINARY_REQUESTS.items():
        write("parser", name, data)


# ----------------------------------------------------------------------------------------------- query
QUERIES = [
    "state=NSW", "a=1&b=2&a=3", "flag", "&&a=&=b&", "q=hello+world", "q=caf%C3%A9", "bad=%zz%4", "x=%FF%FE",
    "near=-33.86,151.2&radius_km=5&fuel=U91&limit=20", "since=2026-01-15T02:30:53Z", "a==b=c", "%26=%3D",
    "/v1/stations/42", "/a/./b/../c//d/%2e%2E", "/caf%C3%A9/%2F/x/", "/%c0%ae", "/..", "/",
]


def query_seeds():
    for index, text in enumerate(QUERIES):
        write("query", f"q{index:02d}", text)


# -------------------------------------------------------------------------------------------- adapters
def json_variants(target, name, document, array_paths, keep=(1, 5, 20)):
    """The document with each listed array cut to its first `keep` rows, plus empty arrays."""
    def cut(value, count):
        if isinstance(value, list):
            return value[:count]
        copy = dict(value)
        for path in array_paths:
            if path in copy and isinstance(copy[path], list):
                copy[path] = copy[path][:count]
        return copy

    for count in keep:
        write(target, f"{name}.first{count}.json", compact(cut(document, count)))
    write(target, f"{name}.empty.json", compact(cut(document, 0)))


def adapter_seeds():
    # NSW: the subset and the app-API shape whole; the full payload as trimmed variants; a TAS row; truncated.
    write("nsw", "nsw_v1_fuel_prices.subset.json", fixture("nsw_v1_fuel_prices.subset.json"))
    write("nsw", "nsw_fuelcheckapp_nearby.json", fixture("nsw_fuelcheckapp_v1_prices_nearby_U91.json"))
    full = json.loads(fixture("nsw_v1_fuel_prices.json"))
    json_variants("nsw", "nsw_v1_fuel_prices", full, ["stations", "prices"], keep=(1, 40))
    tas = {"stations": [dict(full["stations"][0], state="TAS", code=1)],
           "prices": [dict(full["prices"][0], stationcode=1, state="TAS")]}
    write("nsw", "nsw_tas.json", compact(tas))
    write("nsw", "nsw_truncated.json", fixture("nsw_v1_fuel_prices.subset.json")[:3000])

    # WA RSS: the 2017 fixture whole, the 2019 capture trimmed to a few items, tomorrow-style empty channel.
    write("wa-rss", "wa_fuelWatchRSS_fixture_2017.xml", fixture("wa_fuelWatchRSS_fixture_2017.xml"))
    rss = fixture("wa_fuelWatchRSS_today_metro_ULP.xml").decode("utf-8")
    items = re.findall(r"<item>.*?</item>", rss, flags=re.S)
    start = rss.index("<item>")
    tail = "</channel></rss>\n"
    for count in (1, 3, 12):
        write("wa-rss", f"wa_rss_today.first{count}.xml", rss[:start] + "".join(items[:count]) + tail)
    write("wa-rss", "wa_rss_empty_channel.xml", rss[:start] + tail)
    write("wa-rss", "wa_rss_truncated.xml", rss[:start] + "".join(items[:2])[:-40])
    write("wa-rss", "wa_rss_bom_crlf.xml", b"\xef\xbb\xbf" + (rss[:start] + "".join(items[:2]) + tail).replace("\n", "\r\n").encode())

    # WA JSON API: sites and brands whole (small).
    for name in ("wa_api_sites_fuelType_DSL.json", "wa_api_sites_fuelType_ULP.json", "wa_api_brands_2026-04-22.json"):
        write("wa-sites", name, fixture(name))
    sites = json.loads(fixture("wa_api_sites_fuelType_ULP.json"))
    write("wa-sites", "wa_sites_strings.json", compact([dict(sites[0], id=str(sites[0]["id"]))]))

    # QLD / SA: brands, the SA fragments, the QLD site list trimmed, prices built from QLD sites.
    for name in ("qld_GetCountryBrands.json", "qld_GetCountryFuelTypes.json",
                 "sa_GetFullSiteDetails.record-fragment.json", "sa_GetSitesPrices.assembled-fragment.json"):
        write("informed-sources", name, fixture(name))
    qld = json.loads(fixture("qld_GetFullSiteDetails.json"))
    json_variants("informed-sources", "qld_GetFullSiteDetails", qld, ["S"], keep=(1, 10, 60))
    site_ids = [site["S"] for site in qld["S"][:3]]
    prices = {"SitePrices": [
        {"SiteId": site_ids[0], "FuelId": 2, "CollectionMethod": "T", "TransactionDateUtc": "2021-01-06T22:55:00", "Price": 1859.0},
        {"SiteId": site_ids[0], "FuelId": 2, "CollectionMethod": "T", "TransactionDateUtc": "2021-01-07T22:55:00.5", "Price": 1869.0},
        {"SiteId": site_ids[1], "FuelId": 4, "CollectionMethod": "T", "TransactionDateUtc": "2021-03-02T04:01:24.13", "Price": 99.9},
        {"SiteId": str(site_ids[2]), "FuelId": "12", "CollectionMethod": "T", "TransactionDateUtc": "2021-03-02T04:01:24Z", "Price": "9999"},
        {"SiteId": site_ids[2], "FuelId": 1000, "CollectionMethod": "T", "TransactionDateUtc": "2021-03-02 04:01:24", "Price": 1500},
    ]}
    write("informed-sources", "qld_GetSitesPrices.built.json", compact(prices))
    combined = {"S": qld["S"][:3], "SitePrices": prices["SitePrices"]}
    write("informed-sources", "qld_sites_and_prices.json", compact(combined))
    write("informed-sources", "regions.json", compact({"GeographicRegions": [
        {"GeoRegionLevel": 1, "GeoRegionId": 170227225, "Name": "DRY CREEK", "Abbrev": "DRY", "GeoRegionParentId": 189},
        {"GeoRegionLevel": 2, "GeoRegionId": 189, "Name": "Adelaide", "Abbrev": "ADL", "GeoRegionParentId": 4}]}))

    # VIC: the subset and brands whole; the full payload trimmed.
    write("vic", "vic_fuel_prices.subset.json", fixture("vic_fuel_prices.subset.json"))
    write("vic", "vic_reference-data_brands.json", fixture("vic_reference-data_brands.json"))
    vic = json.loads(fixture("vic_fuel_prices.json"))
    json_variants("vic", "vic_fuel_prices", vic, ["fuelPriceDetails"], keep=(1, 40))

    # Support: addresses and timestamps from the payloads.
    texts = set()
    for station in full["stations"][:40]:
        texts.add(station["address"])
    for price in full["prices"][:5]:
        texts.add(price["lastupdated"])
    for detail in vic["fuelPriceDetails"][:20]:
        texts.add(detail["fuelStation"]["address"])
        texts.add(detail.get("updatedAt") or "")
    texts.update(["2019-11-03", " 2019-11-03\r\n", "2021-03-02T04:01:24.1234567Z", "15/01/2026 02:30:53",
                  "52 Hill Street, Uralla, NSW  2358, AU", "Wagga Wagga NSW 2650", "O'CONNOR", "ÉCOLE ST",
                  "456, Metford Road, Metford NEW SOUTH WALES 2323"])
    for text in sorted(t for t in texts if t):
        write("support", hashlib.sha1(text.encode()).hexdigest()[:12], text)


# ------------------------------------------------------------------------------------------ regressions
# Small hand-made equivalents of what the fuzzers found (the tests in Tests/ProvidersTests/AdapterHostileInputTests.swift pin the same).
NSW_HUGE = {"stations": [{"brand": "United", "code": "972", "name": "United Umina", "address": "307 Ocean Beach Road, UMINA BEACH NSW 2257",
                          "location": {"latitude": -33.5, "longitude": 151.3}}],
            "prices": [{"stationcode": "972", "fueltype": "U91", "price": 1e300, "lastupdated": "15/01/2026 02:30:53"},
                       {"stationcode": "972", "fueltype": "E10", "price": 0.01, "lastupdated": "15/01/2026 02:30:53"}]}
VIC_HUGE = {"fuelPriceDetails": [{"fuelStation": {"id": "a", "name": "X", "address": "85 Burnt Creek Drive, Bungalally, 3401",
                                                  "location": {"latitude": -36.7, "longitude": 142.2}},
                                  "fuelPrices": [{"fuelType": "DSL", "isAvailable": True, "price": 1e300, "updatedAt": "2026-08-20T20:00:00Z"}],
                                  "updatedAt": "2026-08-20T20:00:00Z"}]}
WA_SITES_HUGE = [{"id": 1855, "siteName": "Atlas", "address": {"line1": "472 Great Eastern Hwy", "location": "ASCOT", "postCode": 6104,
                                                                 "latitude": -31.9, "longitude": 115.9},
                  "product": {"shortName": "DSL", "priceToday": 1e300, "priceTomorrow": "1e300"}, "brandName": "ATL"}]
QLD_PRICES = {"S": [{"S": "61401007", "N": "X", "Lat": -27.4, "Lng": 153.0}],
              "SitePrices": [{"SiteId": 61401007, "FuelId": 2, "TransactionDateUtc": "2021-01-06T22:55:00", "Price": 1e300},
                             {"SiteId": 61401007, "FuelId": 12, "TransactionDateUtc": "2021-01-06T22:55:00", "Price": 0.04}]}
RSS_ITEM = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><item><price>{price}</price>"
            "<date>{date}</date><trading-name>United Byford</trading-name><latitude>-32.2154436</latitude>"
            "<longitude>116.0080304</longitude></item></channel></rss>\n")


def regression_seeds():
    write("nsw", "regress-huge-price.json", compact(NSW_HUGE))
    write("vic", "regress-huge-price.json", compact(VIC_HUGE))
    write("wa-sites", "regress-huge-price.json", compact(WA_SITES_HUGE))
    write("informed-sources", "regress-huge-price.json", compact(QLD_PRICES))
    write("wa-rss", "regress-huge-price.xml", RSS_ITEM.format(price="1e300", date="2019-11-03"))
    write("wa-rss", "regress-year-0912.xml", RSS_ITEM.format(price="122.9", date="0912-11-03"))
    write("wa-rss", "regress-non-utf8-name", b"<\xff\xff\x00\x00")
    write("wa-rss", "regress-non-utf8-attribute", b"<rss a\xff=\"\"><channel/></rss>")
    write("wa-rss", "regress-pi-without-data.xml", "<?xml?>\n<rss version=\"2.0\"><channel><?x?></channel></rss>")
    write("wa-rss", "regress-pi-from-entity.xml", "<!DOCTYPE rss [<!ENTITY e \"&#60;?x?&#62;\">]><rss><channel>&e;</channel></rss>")
    write("wa-rss", "regress-pi-utf16.xml", "<?x?><rss/>".encode("utf-16-le"))
    write("support", "regress-year-0912", "0912-11-03")


def main():
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    parser_seeds()
    query_seeds()
    adapter_seeds()
    regression_seeds()
    total = 0
    for folder in sorted(CORPUS.iterdir()):
        files = list(folder.iterdir())
        size = sum(f.stat().st_size for f in files)
        total += size
        print(f"{folder.name:18} {len(files):4} files {size / 1024:9.1f} KiB")
    print(f"{'total':18} {'':4}       {total / 1024:9.1f} KiB")


if __name__ == "__main__":
    main()
