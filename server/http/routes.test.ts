import { describe, expect, it } from "vitest";
import { allowHeader } from "./endpoint";
import { allowFor, routeFor } from "./routes";

describe("the route table behind Allow headers", () => {
  it("finds a path's route, literal segments before parameters, and formats Allow like the routes' own 405", () => {
    expect(routeFor("/api/eval/runs/compare")).toEqual({ template: "/api/eval/runs/compare", methods: ["GET"] });
    expect(routeFor("/api/eval/runs/R-00001")?.template).toBe("/api/eval/runs/{id}");
    expect(allowFor("/api/builder/agents")).toBe("GET, POST, HEAD, OPTIONS");
    expect(allowFor("/api/builder/agents/abc")).toBe("GET, PATCH, DELETE, HEAD, OPTIONS");
    expect(allowFor("/api/agents/abc/chat")).toBe("POST, OPTIONS");
    expect(allowFor("/eval")).toBeNull();
    expect(allowFor("/api/nope")).toBeNull();
    expect(allowHeader(["DELETE", "POST"])).toBe("POST, DELETE, OPTIONS");
  });
});
