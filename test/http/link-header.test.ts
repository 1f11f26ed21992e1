import { describe, expect, it } from "vitest";
import { parseLinkHeader } from "../../src/http/index.ts";

describe("parseLinkHeader (RFC 8288)", () => {
  it("reads a single next link", () => {
    expect(parseLinkHeader('</events?page=2>; rel="next"')).toEqual([
      { url: "/events?page=2", rel: ["next"], params: {} },
    ]);
  });

  it("reads several links with unquoted and quoted parameters", () => {
    const links = parseLinkHeader(
      '<https://a.example/p1>; rel=prev; title="Page 1", <https://a.example/p3>;rel="next last" ;type=application/json',
    );
    expect(links).toEqual([
      { url: "https://a.example/p1", rel: ["prev"], params: { title: "Page 1" } },
      { url: "https://a.example/p3", rel: ["next", "last"], params: { type: "application/json" } },
    ]);
  });

  it("does not split on a comma inside <…> or inside a quoted string", () => {
    const links = parseLinkHeader(
      '<https://a.example/e?EQ_bizStep=a,b>; rel="next"; title="one, two", </x>; rel=up',
    );
    expect(links.map((link) => link.url)).toEqual(["https://a.example/e?EQ_bizStep=a,b", "/x"]);
    expect(links[0]?.params["title"]).toBe("one, two");
    expect(links[1]?.rel).toEqual(["up"]);
  });

  it("unescapes quoted pairs", () => {
    expect(parseLinkHeader('</x>; rel=next; title="say \\"hi\\""')[0]?.params["title"]).toBe('say "hi"');
  });

  it("lower-cases parameter names and registered relation types, keeping extension URIs", () => {
    const [link] = parseLinkHeader('</x>; REL="Next https://ex.example/Rel"; Title=T');
    expect(link?.rel).toEqual(["next", "https://ex.example/Rel"]);
    expect(link?.params).toEqual({ title: "T" });
  });

  it("counts only the first rel and keeps a parameter without a value", () => {
    const [link] = parseLinkHeader("</x>; rel=next; rel=prev; crossorigin");
    expect(link?.rel).toEqual(["next"]);
    expect(link?.params).toEqual({ crossorigin: "" });
  });

  it("keeps a parameter named like an object property as an ordinary name", () => {
    const [link] = parseLinkHeader("</x>; __proto__=p; constructor=c");
    expect(Object.keys(link?.params ?? {})).toEqual(["__proto__", "constructor"]);
  });

  it("skips malformed links and keeps the good ones", () => {
    const links = parseLinkHeader('garbage; rel="next", </ok>; rel=next, ,  <unterminated');
    expect(links).toEqual([{ url: "/ok", rel: ["next"], params: {} }]);
  });

  it("gives no links for an empty value", () => {
    expect(parseLinkHeader("")).toEqual([]);
    expect(parseLinkHeader(" , ")).toEqual([]);
  });
});
