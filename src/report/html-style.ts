// report.html's one stylesheet, inline: the file is opened from CI artefacts and mail, with no network and no
// script. The print rules open every collapsed block and drop what only a screen can use.
export const STYLE = `
:root { --fg: #1f2328; --muted: #57606a; --line: #d0d7de; --soft: #f6f8fa;
  --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --skip: #57606a; --error: #8250df; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; padding: 1.5rem 2rem 3rem;
  max-width: 1200px; color: var(--fg); }
h1 { font-size: 1.1rem; font-weight: 600; margin: 0 0 .8rem; color: var(--muted); }
h2 { font-size: 1.2rem; margin: 2rem 0 .6rem; padding-bottom: .2rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; margin: 0; display: inline; }
h4 { margin: .7rem 0 .25rem; font-size: .85rem; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
code, pre, .mono { font: 12.5px/1.45 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: .5rem .6rem; margin: .25rem 0;
  white-space: pre-wrap; overflow-wrap: anywhere; }
a { color: #0969da; }

.banner { display: grid; grid-template-columns: auto 1fr; gap: .2rem 1.4rem; align-items: center; padding: 1rem 1.4rem;
  border-radius: 8px; border: 2px solid; margin-bottom: 1.2rem; }
.banner .word { grid-row: span 2; font-size: 2.4rem; font-weight: 800; letter-spacing: .06em; }
.banner .because { font-size: 1.1rem; font-weight: 600; }
.banner ul.counts { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; }
.banner ul.counts li { font-variant-numeric: tabular-nums; }
.banner.verdict-pass { border-color: var(--pass); background: #dafbe1; }
.banner.verdict-pass .word { color: var(--pass); }
.banner.verdict-fail { border-color: var(--fail); background: #ffebe9; }
.banner.verdict-fail .word { color: var(--fail); }
.banner.verdict-incomplete, .banner.verdict-interrupted { border-color: var(--error); background: #fbefff; }
.banner.verdict-incomplete .word, .banner.verdict-interrupted .word { color: var(--error); }

nav.toc { margin: 0 0 1rem; color: var(--muted); }
nav.toc a { margin-right: 1rem; }

dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1.2rem; margin: 0; }
dl.meta dt { font-weight: 600; color: var(--muted); }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
dl.meta .note { color: var(--muted); }

table { border-collapse: collapse; width: 100%; margin: .4rem 0; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: var(--soft); }
tbody th.group { background: #eaeef2; font-size: .95rem; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.summary { width: auto; } table.summary th, table.summary td { min-width: 4.5rem; text-align: center; }

.status { font-weight: 700; text-transform: uppercase; font-size: 12px; }
.pass { color: var(--pass); } .fail { color: var(--fail); } .warn { color: var(--warn); }
.skip { color: var(--skip); } .error { color: var(--error); }

details { margin: .4rem 0; }
summary { cursor: pointer; }
details.requirement { border: 1px solid var(--line); border-left: 5px solid var(--line); border-radius: 6px;
  padding: .5rem .9rem .7rem; margin: .8rem 0; }
details.requirement.req-fail { border-left-color: var(--fail); }
details.requirement.req-warn { border-left-color: var(--warn); }
details.requirement.req-error { border-left-color: var(--error); }
details.requirement > summary { font-weight: 600; }
details.requirement > summary .meta { font-weight: 400; color: var(--muted); margin-left: .4rem; }
p.reason { margin: .5rem 0; font-weight: 500; }
blockquote.spec { margin: .3rem 0 .5rem; padding: .15rem 0 .15rem .7rem; border-left: 3px solid var(--line);
  color: var(--muted); font-size: 13px; }
blockquote.spec::before { content: "Spec: "; font-weight: 600; }

.item { border-top: 1px dashed var(--line); margin-top: .7rem; padding-top: .5rem; }
.item > p.message { margin: .2rem 0 .4rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .3rem 0; }
dl.facts dt { color: var(--muted); font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
dl.facts dl.facts { margin: 0; }
.compare { display: grid; grid-template-columns: 1fr 1fr; gap: .8rem; }
table.events td, table.events th { font-size: 12.5px; }
table.events td.id { white-space: nowrap; }
.meets { color: var(--pass); } .breaks { color: var(--fail); font-weight: 600; }
.side-missing { color: var(--fail); } .side-extra { color: var(--warn); }
.curl h4 { margin-top: .5rem; }
details.exchange > summary, details.more > summary { color: var(--muted); }
.group-note { color: var(--muted); font-style: italic; margin: .6rem 0 .2rem; }
ul.others { margin: .2rem 0; padding-left: 1.2rem; }
ul.asks { list-style: none; margin: 0; padding: 0; }
.unknown { color: var(--muted); font-style: italic; }
p.value { margin: .2rem 0; overflow-wrap: anywhere; }

@media print {
  @page { margin: 14mm 12mm; }
  body { padding: 0; max-width: none; font-size: 11.5px; }
  nav.toc, a.jump { display: none; }
  a { color: inherit; text-decoration: none; }
  .banner, .status, .pass, .fail, .warn, .error, details.requirement { -webkit-print-color-adjust: exact;
    print-color-adjust: exact; }
  /* Every collapsed block prints open; its summary stays as a heading without the disclosure triangle. */
  details::details-content { content-visibility: visible; display: block; }
  summary { list-style: none; cursor: auto; }
  summary::-webkit-details-marker { display: none; }
  details.requirement { break-inside: auto; }
  .item > dl.facts, tr, .curl { break-inside: avoid; }
  pre { white-space: pre-wrap; }
  h2 { break-after: avoid; }
  /* Its summary line says what the rows would: classes the run did not choose. */
  details.not-selected > table { display: none; }
}
`;
