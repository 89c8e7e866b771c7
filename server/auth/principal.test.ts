import { describe, expect, it } from "vitest";
import { crossSiteReason } from "./principal";

const h = (headers: Record<string, string>) => new Headers(headers);

describe("crossSiteReason (a browser session's request that may change something)", () => {
  it("reads are never refused, wherever the page is", () => {
    for (const method of ["GET", "HEAD", "OPTIONS", "get"])
      expect(crossSiteReason(h({ "sec-fetch-site": "cross-site", origin: "https://x.example" }), method)).toBeNull();
  });

  it("Sec-Fetch-Site decides when the browser sends it: same-origin (and a person's own navigation) pass", () => {
    expect(crossSiteReason(h({ "sec-fetch-site": "same-origin", host: "a:3000" }), "POST")).toBeNull();
    expect(crossSiteReason(h({ "sec-fetch-site": "none" }), "DELETE")).toBeNull();
    expect(crossSiteReason(h({ "sec-fetch-site": "same-site", host: "a:3000" }), "POST")).toMatch(/same-site page/);
    expect(crossSiteReason(h({ "sec-fetch-site": "cross-site" }), "PUT")).toMatch(/cross-site page/);
    // trusted over Origin: the browser sets both, and same-origin is its own judgement of the page
    expect(
      crossSiteReason(h({ "sec-fetch-site": "same-origin", origin: "http://b:1", host: "a:3000" }), "PATCH"),
    ).toBeNull();
  });

  it("without Sec-Fetch-Site, Origin must name the host the request was sent to (X-Forwarded-Host first)", () => {
    expect(crossSiteReason(h({ origin: "http://a:3000", host: "a:3000" }), "POST")).toBeNull();
    expect(crossSiteReason(h({ origin: "http://A:3000", host: "a:3000" }), "POST")).toBeNull();
    expect(crossSiteReason(h({ origin: "http://a:3001", host: "a:3000" }), "POST")).toMatch(
      /came from http:\/\/a:3001/,
    );
    expect(
      crossSiteReason(h({ origin: "https://fb.example", host: "app1:3000", "x-forwarded-host": "fb.example" }), "POST"),
    ).toBeNull();
    expect(
      crossSiteReason(h({ origin: "http://app1:3000", host: "app1:3000", "x-forwarded-host": "fb.example" }), "POST"),
    ).toMatch(/not from fb.example/);
    expect(crossSiteReason(h({ origin: "null", host: "a:3000" }), "POST")).toMatch(/not a page's/);
  });

  it("a request with neither header is no browser's and passes", () => {
    expect(crossSiteReason(h({ host: "a:3000" }), "POST")).toBeNull();
  });
});
