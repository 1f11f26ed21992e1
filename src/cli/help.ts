import { REFERENCE_CONFIGURATIONS } from "../reference/configurations.ts";

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
  receiver   check a receiver: the reference sender records its requests, then judges them
  trace      pull a product's trace from a sender, as a receiver does (the reference receiver)

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
                        sender (tracecheck serve --help lists them)
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
--reference-config starts from a named configuration of a correct but unusual sender; the other flags
override it. The configurations:
${REFERENCE_CONFIGURATIONS.map((c) => `  ${c.name.padEnd(22)} ${c.description}`).join("\n")}
POST /capture (EPCIS 2.0 capture) takes at most --capture-limit events (default 500) and
--capture-size-limit bytes (default 16777216) a request.
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

export const RECEIVER_HELP = `Usage: tracecheck receiver [--port <n>] [--reference-config <name>] [--report-dir <dir>]
                          [--until-idle <s>] [--json] [--dataset <file> | --seed <n> --events <n>]
                          [--timeout <ms>] [-- CMD ARGS]

Checks a receiver, the other role of the exchange. Starts the reference sender, recording every request as
it arrives, and prints what a receiver needs to begin: the events base (GET <base>/events), the resolver
base, an API key, the sender's party Digital Link URI and GLN, and a task: a product identifier, as a
shipment notice gives it, whose trace the receiver is to fetch. The receiver under test then does its work.
The sender serves its master data, and the query interface its epcis links name, at paths of this session
alone: a receiver finds them only where the resolver says (a link set's hrefs, or its redirects).

The recording ends when the receiver is done:
  -- CMD ARGS           run CMD as the receiver and end when it exits; its environment holds
                        TRACECHECK_EVENTS_URL, TRACECHECK_RESOLVER_URL, TRACECHECK_API_KEY, TRACECHECK_PARTY,
                        TRACECHECK_GLN and TRACECHECK_TASK (a Digital Link URI under https://id.gs1.org)
  --until-idle <s>      end after this many seconds without a request
  SIGINT or SIGTERM     (Ctrl-C) end the recording; it is judged as a normal end
Then every request is judged against the receiver requirements (RCV-*) and the reports are written.

  --port <n>            port of the sender (default: a free one)
  --reference-config <name>
                        how the sender behaves: paged, refuse-broad, digital-link, split-resolver,
                        narrow-only (413 for any answer longer than a handful of events, unless it asks one
                        EPC, lot or serial, so that only a receiver that narrows its queries gets the whole
                        trace), narrow-windows (the same, one identifier too, so that only eventTime windows
                        narrow enough), or any configuration of tracecheck run
  --report-dir <dir>    where report.json, junit.xml and report.html go (default: reports/)
  --json                stdout carries JSON lines: {"kind":"setup",…} first, {"kind":"summary",…} last;
                        everything a person reads, the command's output too, goes to stderr
  --dataset <file>      the sender's data (default: generated from --seed 1 --events 200)
  --timeout <ms>        per request of the judging's own look-ups at the sender (default 10000)

Example: tracecheck receiver --reference-config paged -- node bin/tracecheck.js trace
Exit status: 0 every applicable MUST passed; 1 a MUST failed; 2 the session could not be completed.
`;

export const TRACE_HELP = `Usage: tracecheck trace <dl-uri | epc> --target <url> [--resolver <url>] --api-key <key>
                       [--resolve linkset|redirect] [--out <file>] [--timeout <ms>] [--quiet]

The reference receiver: pulls a product's trace from a sender as the exchange workflow describes. It writes
the identifier as a Digital Link URI under the sender's resolver and asks for its link set
(linkType=linkset), queries the EPCIS query interface the epcis link names (list values joined by %7C,
time bounds in UTC, a 413 narrowed by fewer values at a time and eventTime windows), follows every page,
walks back through aggregations and transformations to the first events, and fetches the master data of the
products, business locations and parties at the hrefs the link sets give. The key goes in X-API-Key.

  <dl-uri | epc>        the product, e.g. https://id.gs1.org/01/09506000134352/10/LOT1 (or env TRACECHECK_TASK)
  --target <url>        base of the sender's EPCIS query interface (or env TRACECHECK_EVENTS_URL); used for the
                        events when the link set names no query interface
  --resolver <url>      base of the sender's resolver (default: --target; or env TRACECHECK_RESOLVER_URL)
  --api-key <key>       key for X-API-Key (or env TRACECHECK_API_KEY)
  --resolve <how>       how the resolver is asked where things are: linkset (default), for the link set and
                        its hrefs; redirect, for one link type at a time (linkType=gs1:epcis, gs1:masterData),
                        following the resolver's redirect to the link
  --out <file>          write the trace as an EPCISDocument with the master data; default: print it readably
  --timeout <ms>        per request (default 10000)
  --quiet               no progress lines
  --faults <a,b>        for proving tracecheck receiver only: switch on named client defects
                        (repeat-key, raw-pipe, key-in-query, alphabetic-ai, guessed-masterdata, setup-events,
                        ignore-paging, local-time, give-up-413)

Exit status: 0 the whole trace was fetched; 1 parts of it could not be fetched (listed on stderr);
2 the trace could not begin (bad arguments, the sender unreachable or refusing the key).
`;
