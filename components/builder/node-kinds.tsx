/**
 * How each node type looks: icon, accent colour, and a one-line summary of its config for the node card.
 * Titles and descriptions come from the contract (NODE_CONTRACTS); only the visuals live here.
 */
import type { ReactNode } from "react";
import { Icon, ellipse } from "@/components/ui/icon";
import { NODE_CONTRACTS, isNodeType, type NodeType } from "@/server/workflow/contract";

export interface KindStyle {
  /** Tailwind classes for the icon tile. */
  tile: string;
  /** Tailwind classes for soft backgrounds (palette hover, chips). */
  soft: string;
  /** Hex colour for the minimap and edges. */
  hex: string;
  icon: ReactNode;
}

export const KIND_STYLES: Record<NodeType, KindStyle> = {
  start: {
    tile: "bg-emerald-500 text-white",
    soft: "bg-emerald-50 text-emerald-700",
    hex: "#10b981",
    icon: <Icon d="M7 5v14l11-7z" strokeWidth={2} />,
  },
  end: {
    tile: "bg-rose-500 text-white",
    soft: "bg-rose-50 text-rose-700",
    hex: "#f43f5e",
    icon: <Icon d="M5 21V4M5 4h11l-2 4 2 4H5" strokeWidth={2} />,
  },
  llm: {
    tile: "bg-violet-500 text-white",
    soft: "bg-violet-50 text-violet-700",
    hex: "#8b5cf6",
    icon: (
      <Icon
        d={[
          "M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8z",
          "M19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z",
        ]}
        strokeWidth={2}
      />
    ),
  },
  http: {
    tile: "bg-sky-500 text-white",
    soft: "bg-sky-50 text-sky-700",
    hex: "#0ea5e9",
    icon: (
      <Icon
        d={[
          ellipse(12, 12, 9),
          "M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z",
        ]}
        strokeWidth={2}
      />
    ),
  },
  condition: {
    tile: "bg-amber-500 text-white",
    soft: "bg-amber-50 text-amber-700",
    hex: "#f59e0b",
    icon: <Icon d="M6 3v6a4 4 0 0 0 4 4h8M18 13l-3-3M18 13l-3 3M6 21v-8" strokeWidth={2} />,
  },
  code: {
    tile: "bg-slate-700 text-white",
    soft: "bg-slate-100 text-slate-700",
    hex: "#334155",
    icon: <Icon d="M8 7l-5 5 5 5M16 7l5 5-5 5M14 4l-4 16" strokeWidth={2} />,
  },
  memory_load: {
    tile: "bg-teal-500 text-white",
    soft: "bg-teal-50 text-teal-700",
    hex: "#14b8a6",
    icon: (
      <Icon
        d={[ellipse(12, 5, 8, 3), "M4 5v6c0 1.7 3.6 3 8 3M20 5v4M4 11v6c0 1.7 3.6 3 8 3M18 13v8M15 18l3 3 3-3"]}
        strokeWidth={2}
      />
    ),
  },
  memory_save: {
    tile: "bg-fuchsia-500 text-white",
    soft: "bg-fuchsia-50 text-fuchsia-700",
    hex: "#d946ef",
    icon: (
      <Icon
        d={[ellipse(12, 5, 8, 3), "M4 5v6c0 1.7 3.6 3 8 3M20 5v4M4 11v6c0 1.7 3.6 3 8 3M18 21v-8M15 16l3-3 3 3"]}
        strokeWidth={2}
      />
    ),
  },
};

export const UNKNOWN_STYLE: KindStyle = {
  tile: "bg-slate-400 text-white",
  soft: "bg-slate-100 text-slate-600",
  hex: "#94a3b8",
  icon: <Icon d={[ellipse(12, 12, 9), "M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14M12 17h.01"]} strokeWidth={2} />,
};

export function kindStyle(kind: string): KindStyle {
  return isNodeType(kind) ? KIND_STYLES[kind] : UNKNOWN_STYLE;
}

export function kindTitle(kind: string): string {
  return isNodeType(kind) ? NODE_CONTRACTS[kind].title : `Unknown type "${kind}"`;
}

function str(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function oneLine(text: string, max = 90): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** A short, human summary of a node's config for its card. Empty string when there is nothing to say. */
export function summarizeConfig(kind: string, config: Record<string, unknown>): string {
  switch (kind) {
    case "start": {
      const outputs = Array.isArray(config.outputs) ? (config.outputs as Record<string, unknown>[]) : [];
      const names = outputs.map((o) => `${str(o?.name) || "?"}${o?.required ? "*" : ""}: ${str(o?.type) || "?"}`);
      const vars = config.variables && typeof config.variables === "object" ? Object.keys(config.variables) : [];
      const parts = [...names, ...vars.map((v) => `${v} (const)`)];
      return parts.length ? oneLine(parts.join(", ")) : "No inputs declared";
    }
    case "end":
      return oneLine(str(config.output)) || "Returns nothing yet";
    case "llm": {
      const prompt = str(config.userPrompt) || str(config.user_prompt) || str(config.prompt_template);
      return prompt ? oneLine(prompt) : "";
    }
    case "http": {
      const url = str(config.url);
      return url ? oneLine(`${str(config.method) || "GET"} ${url}`) : "";
    }
    case "condition":
      return oneLine(str(config.expression));
    case "code": {
      const code = str(config.code);
      const first = code.split("\n").find((l) => l.trim() !== "" && !l.trim().startsWith("#")) ?? "";
      return oneLine(first);
    }
    case "memory_load":
    case "memory_save": {
      const agent = str(config.agent_id);
      return agent ? oneLine(`${agent} · ${str(config.memory_type) || "conversation"}`) : "";
    }
    default:
      return oneLine(str(config));
  }
}
