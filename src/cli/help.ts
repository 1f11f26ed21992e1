// Help texts. The option lists follow CONTRACT.md word for word where it fixes them.
export const MAIN_HELP = `tracecheck — conformance harness for the Traceability Exchange Interface
(EPCIS 2.0 query interface, GS1 Digital Link resolver, master data, X-API-Key)

Usage: tracecheck <command> [options]

Commands:
  run        check a target (default target: the embedded reference sender)
  serve      start the reference sender
  faults     list the reference sender's named faults (--json)
  fixtures   write a dataset for a vendor to load
  load       send a dataset to a target's EPCIS capture interface (POST /capture)
  diff       what changed between two report.json files

Run "tracecheck <command> --help" for the options of a command; "tracecheck --version" prints the version.
Exit status: 0 every applicable MUST passed; 1 a MUST failed (or regressed); 2 the run could not be completed.
`;

export const RUN_HELP = `Usage: tracecheck run [options]

  --target <url>        base of the EPCIS query interface: GET <url>/events
                        omitted: start the embedded reference sender and check it
  --resolver <url>      base of the Digital Link resolver (default: --target)
  --api-key <key>       key for X-API-Key (or env TRACECHECK_API_KEY); omitted: the
                        target is treated as public and auth checks are skipped with a reason
  --party <dl-uri>      the sender's party Digital Link URI exchanged at setup (…/417/{pgln})
  --gln <gln>           the sender's location number exchanged at setup
  --start-from <id>     a Digital Link URI or EPC to start discovery from when broad
                        queries are refused
  --dataset <file>      the dataset the target was loaded with; omitted: discover it
  --load capture        POST the fixture dataset (--dataset, else --seed and --events) to
                        {target}/capture (EPCIS 2.0 capture), then run with it as the known baseline
  --suite <a,b>         conformance classes to run (default: all): events, resolver,
                        masterdata, auth, core-events, workflow, definition
  --modules <a,b>       commodity modules whose payload schemas apply (core is always on):
                        seafood, wildcatch, aquaculture
  --seed <n>            seed for every generated case (default: random, printed and reported)
  --runs <n>            property cases per property (default: 25)
  --definition <file>   interface definition (default: schemas/interface.openapi.yaml)
  --schema-mirror <dir> offline mirror for schema URLs, laid out as <dir>/<host>/<path>
                        (or env TRACECHECK_SCHEMA_MIRROR)
  --report-dir <dir>    where reports go (default: reports/)
  --baseline <file>     an earlier report.json: print and record what changed
  --timeout <ms>        per request (default 10000); --concurrency <n> (default 8);
  --rate <requests/s>   (default 0: unlimited)
  --retry-budget <s>    seconds the whole run may spend waiting on Retry-After (default 120);
                        past it a 429 stands, and what it leaves undecided is an error
  --max-pages <n>       pages one answer may take (default 1000000); an answer paged further
                        fails as paging that never ends (EVT-PAGING)
  --max-answer-bytes <n>
                        body bytes one answer may take over its pages (default 17179869184, 16 GiB)
  --allow-origin <url>  an extra origin the key may be sent to (repeatable)
  --json                one JSON object on stdout (verdict, exitCode, summary, failed and errored ids,
                        report paths); everything a person reads goes to stderr
  --config <file>       options as YAML (default: ./tracecheck.config.yaml when present);
                        keys are the long option names; flags win
  --events <n>          embedded reference, or --load capture: events to generate (default 200)
  --faults <a,b>        embedded reference only: switch on named faults (see tracecheck faults)
  --reference-config <name>
                        embedded reference only: a named configuration of a correct but unusual
                        sender: paged, digital-link, refuse-broad, forbidden-403, split-resolver
  --quiet               no progress lines
`;

export const SERVE_HELP = `Usage: tracecheck serve [--port <n>] [--resolver-port <n>] [--api-key <key>] [--keys-file <file>]
                       [--dataset <file> | --seed <n> --events <n>] [--faults <a,b>]
                       [--host <addr>] [--page-size <n>] [--broad-limit <n>] [--wrong-key-status 401|403]
                       [--answer-in-digital-link] [--canonical-anchors] [--auth-on-resolver]
                       [--reference-config <name>]
                       [--capture-limit <n>] [--capture-size-limit <bytes>]

Prints one line "listening <events-base-url> <resolver-base-url>" once it accepts requests;
stops cleanly on SIGTERM and SIGINT. Keys also come from TRACECHECK_API_KEY.
--reference-config starts from a named configuration (paged, digital-link, refuse-broad, forbidden-403,
split-resolver); the other flags override it. POST /capture (EPCIS 2.0 capture) takes at most
--capture-limit events (default 500) and --capture-size-limit bytes (default 16777216) a request.
`;

export const LOAD_HELP = `Usage: tracecheck load --target <url> --api-key <key> [--dataset <file> | --seed <n> --events <n>]
                      [--start-from <id>] [--timeout <ms>] [--quiet]

Sends the dataset (default: the one --seed 1 --events 200 generates) to the target's EPCIS 2.0 capture
interface: POST <url>/capture, each capture job followed until it finishes, in requests that keep to the
limits the target announces (GS1-EPCIS-Capture-Limit, GS1-EPCIS-Capture-File-Size-Limit) or a 413 names.
Events the target holds already (by eventID) are not sent again, so a second load captures nothing.
Master data and link sets are not captured. The key also comes from TRACECHECK_API_KEY.
Exit status: 0 loaded; 2 the target has no capture interface, refused the key or the events.
`;

export const FAULTS_HELP = `Usage: tracecheck faults [--json]

Lists the named faults of the reference sender, each with the requirements it violates.
`;

export const FIXTURES_HELP = `Usage: tracecheck fixtures --seed <n> --events <n> --out <file>

Writes a dataset: an EPCISDocument (JSON-LD) plus the master data that its identifiers need.
`;

export const DIFF_HELP = `Usage: tracecheck diff <old report.json> <new report.json>

Newly failing, newly passing and changed requirements; exit 1 if anything regressed.
`;
