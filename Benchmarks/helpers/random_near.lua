-- wrk script: every request asks /v1/summary about a different point spread over Sydney (latitude -34.05 to -33.70,
-- longitude 150.85 to 151.30), so nothing a fixed query could cache helps.
math.randomseed(os.time())
request = function()
    local lat = -34.05 + math.random() * 0.35
    local lng = 150.85 + math.random() * 0.45
    return wrk.format("GET", string.format("/v1/summary?state=NSW&fuel=U91&near=%.4f,%.4f", lat, lng))
end
