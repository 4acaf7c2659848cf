-- wrk script of bench:intake: POST /api/estimate, each request with its own pre-minted bot-check
-- token and a distinct body (no double-submit folding).
-- Arguments after `--`: <tokens file, one a line> <body template file> <tag> <threads (wrk -t)>.
-- The template holds __SEQ__ (replaced by <tag>-<n>) and __TOKEN__.
-- Threads take tokens n = id, id + threads, ...; when the file runs out the request goes without a
-- token (answered 4xx) and is counted as `exhausted`.
-- done() prints one line: BENCH_JSON {...} with the summary and latency percentiles (µs).

local threads = {}
local nthreads = 0

function setup(thread)
  thread:set("id", nthreads)
  nthreads = nthreads + 1
  table.insert(threads, thread)
end

local tokens = {}
local parts = {}
local tag = ""
local step = 1
local idx = 0
sent = 0
exhausted = 0

local function split_template(s)
  local a, b = s:find("__SEQ__", 1, true)
  local c, d = s:find("__TOKEN__", 1, true)
  if not a or not c or c < b then error("template needs __SEQ__ before __TOKEN__") end
  return { s:sub(1, a - 1), s:sub(b + 1, c - 1), s:sub(d + 1) }
end

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then tokens[#tokens + 1] = line end
  end
  local f = assert(io.open(args[2], "r"))
  parts = split_template(f:read("*a"))
  f:close()
  tag = args[3] or "x"
  step = tonumber(args[4] or "1") or 1
  idx = (tonumber(wrk.thread:get("id")) or 0) + 1
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  local tok = tokens[idx]
  local seq = tag .. "-" .. idx
  idx = idx + step
  sent = sent + 1
  if tok == nil then
    exhausted = exhausted + 1
    tok = ""
  end
  return wrk.format(nil, "/api/estimate", nil, parts[1] .. seq .. parts[2] .. tok .. parts[3])
end

function done(summary, latency, requests)
  local s, x = 0, 0
  for _, t in ipairs(threads) do
    s = s + (tonumber(t:get("sent")) or 0)
    x = x + (tonumber(t:get("exhausted")) or 0)
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"sent":%d,"exhausted":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"min":%d,"mean":%.1f,"p50":%d,"p90":%d,"p99":%d,"max":%d}}\n',
    summary.requests, summary.duration, summary.bytes, s, x,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
