"use client";

/**
 * One CodeMirror 6 editor (bundled, no CDN) for every text-like field of the side panel: single-line templates,
 * multi-line prompts, CEL, JSON and Python. Template fields highlight `{{node.field}}` and complete after `{{`.
 *
 * Undo/redo inside an editor is the canvas' one history (Ctrl+Z is handled by the canvas, which coalesces typing
 * per field), so the editor carries no history of its own; outside changes are applied as a minimal diff so the
 * cursor stays where it was.
 */
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
  type CompletionContext,
} from "@codemirror/autocomplete";
import { json } from "@codemirror/lang-json";
import { python } from "@codemirror/lang-python";
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { Annotation, Compartment, EditorState, type Extension } from "@codemirror/state";
import {
  Decoration,
  EditorView,
  MatchDecorator,
  ViewPlugin,
  drawSelection,
  highlightActiveLine,
  keymap,
  lineNumbers,
  placeholder as cmPlaceholder,
  type DecorationSet,
  type ViewUpdate,
} from "@codemirror/view";
import { useEffect, useRef } from "react";
import type { CompletionResult } from "./completion";

export type CodeLanguage = "plain" | "json" | "python";

export type CompleteFn = (text: string, pos: number, explicit: boolean) => CompletionResult | null;

export interface CodeFieldProps {
  id: string;
  value: string;
  onChange?: (value: string) => void;
  language?: CodeLanguage;
  singleLine?: boolean;
  /** id of the element that labels the editor */
  labelledBy: string;
  describedBy?: string;
  invalid?: boolean;
  placeholder?: string;
  complete?: CompleteFn;
  /** Highlight {{templates}}. */
  templates?: boolean;
  readOnly?: boolean;
  minLines?: number;
  mono?: boolean;
}

const External = Annotation.define<boolean>();

/** Tab indents in code editors (Escape then Tab leaves the editor, CodeMirror's focus-trap convention). */
const indentWithSpaces = keymap.of([
  {
    key: "Tab",
    run: (view) => {
      view.dispatch(view.state.replaceSelection("    "), { scrollIntoView: true, userEvent: "input" });
      return true;
    },
  },
]);

/** The smallest single change turning `a` into `b`. */
export function minimalChange(a: string, b: string): { from: number; to: number; insert: string } | null {
  if (a === b) return null;
  let start = 0;
  const max = Math.min(a.length, b.length);
  while (start < max && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  return { from: start, to: endA, insert: b.slice(start, endB) };
}

const templateMatcher = new MatchDecorator({
  regexp: /\{\{[^{}\n]*\}\}/g,
  decoration: Decoration.mark({ class: "cm-tpl" }),
});
const templateHighlight = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = templateMatcher.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = templateMatcher.updateDeco(update, this.decorations);
    }
  },
  { decorations: (v) => v.decorations },
);

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

function baseTheme(minLines: number, mono: boolean, singleLine: boolean) {
  return EditorView.theme({
    "&": {
      fontSize: mono ? "12.5px" : "13px",
      backgroundColor: "#fff",
      border: "1px solid #cbd5e1",
      borderRadius: "8px",
      color: "#0f172a",
    },
    "&.cm-focused": { outline: "none", borderColor: "#3b6ef5", boxShadow: "0 0 0 3px rgba(59,110,245,.18)" },
    "&.cm-editor.cm-readonly, &.cm-editor[data-readonly]": { backgroundColor: "#f8fafc" },
    ".cm-scroller": {
      fontFamily: mono ? MONO : "inherit",
      lineHeight: "1.55",
      minHeight: `${minLines * 1.55 + 0.8}em`,
      maxHeight: singleLine ? "none" : "320px",
      overflow: singleLine ? "hidden" : "auto",
    },
    ".cm-content": { padding: "6px 0", caretColor: "#2a56d9" },
    ".cm-line": { padding: "0 10px" },
    ".cm-gutters": {
      backgroundColor: "#f8fafc",
      color: "#64748b",
      border: "none",
      borderRight: "1px solid #e2e8f0",
      borderRadius: "8px 0 0 8px",
    },
    ".cm-activeLine": { backgroundColor: "#f8fafc" },
    ".cm-placeholder": { color: "#64748b" },
    ".cm-tpl": {
      backgroundColor: "#eef4ff",
      color: "#2344ad",
      borderRadius: "4px",
      boxShadow: "0 0 0 1px #dae6ff",
      fontFamily: MONO,
      fontSize: "0.92em",
    },
    ".cm-tooltip.cm-tooltip-autocomplete": {
      border: "1px solid #e2e8f0",
      borderRadius: "10px",
      boxShadow: "0 10px 30px -10px rgba(15,23,42,.3)",
      overflow: "hidden",
      backgroundColor: "#fff",
    },
    ".cm-tooltip.cm-tooltip-autocomplete > ul": {
      fontFamily: MONO,
      fontSize: "12px",
      maxHeight: "240px",
      padding: "4px",
    },
    ".cm-tooltip.cm-tooltip-autocomplete > ul > li": { padding: "4px 8px", borderRadius: "6px", lineHeight: "1.6" },
    ".cm-tooltip.cm-tooltip-autocomplete > ul > li[aria-selected]": { backgroundColor: "#2a56d9", color: "#fff" },
    ".cm-completionDetail": {
      fontFamily: "system-ui, sans-serif",
      fontStyle: "normal",
      opacity: ".65",
      marginLeft: "1em",
    },
    ".cm-completionMatchedText": { textDecoration: "none", fontWeight: "700" },
  });
}

/** Keeps a single-line field on one line: newlines typed or pasted become spaces. */
const oneLine = EditorState.transactionFilter.of((tr) => {
  if (!tr.docChanged || tr.newDoc.lines === 1) return tr;
  const text = tr.newDoc.toString().replace(/\r?\n/g, " ");
  const head = Math.min(tr.newSelection.main.head, text.length);
  return [{ changes: { from: 0, to: tr.startState.doc.length, insert: text }, selection: { anchor: head } }];
});

export function CodeField(props: CodeFieldProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChange = useRef(props.onChange);
  const complete = useRef(props.complete);
  const aria = useRef(new Compartment());
  const editable = useRef(new Compartment());
  onChange.current = props.onChange;
  complete.current = props.complete;

  const {
    language = "plain",
    singleLine = false,
    minLines = singleLine ? 1 : 3,
    mono = language !== "plain",
    templates = false,
  } = props;

  const ariaAttrs = (): Record<string, string> => {
    const attrs: Record<string, string> = {
      "aria-labelledby": props.labelledBy,
      "aria-multiline": String(!singleLine),
      id: props.id,
    };
    if (props.describedBy) attrs["aria-describedby"] = props.describedBy;
    if (props.invalid) attrs["aria-invalid"] = "true";
    if (props.readOnly) attrs["aria-readonly"] = "true";
    return attrs;
  };

  useEffect(() => {
    if (!host.current) return;
    const extensions: Extension[] = [
      baseTheme(minLines, mono, singleLine),
      drawSelection(),
      keymap.of([...closeBracketsKeymap, ...completionKeymap]),
      EditorView.lineWrapping,
      aria.current.of(EditorView.contentAttributes.of(ariaAttrs())),
      editable.current.of([EditorState.readOnly.of(!!props.readOnly), EditorView.editable.of(!props.readOnly)]),
      EditorView.updateListener.of((u) => {
        if (!u.docChanged) return;
        if (u.transactions.some((t) => t.annotation(External))) return;
        onChange.current?.(u.state.doc.toString());
      }),
    ];
    if (props.placeholder) extensions.push(cmPlaceholder(props.placeholder));
    if (singleLine) extensions.push(oneLine);
    if (templates) extensions.push(templateHighlight);
    if (language === "json" || language === "python") {
      extensions.push(
        lineNumbers(),
        highlightActiveLine(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      );
      extensions.push(language === "json" ? json() : python());
      if (language === "python") extensions.push(indentWithSpaces);
    }
    if (props.complete) {
      extensions.push(
        autocompletion({
          icons: false,
          activateOnTyping: true,
          override: [
            (ctx: CompletionContext) => {
              const r = complete.current?.(ctx.state.doc.toString(), ctx.pos, ctx.explicit);
              if (!r || r.items.length === 0) return null;
              return {
                from: r.from,
                to: r.to,
                options: r.items.map((i) => ({ label: i.label, apply: i.apply, detail: i.detail, type: "variable" })),
                validFor: /^[A-Za-z0-9_.-]*$/,
              };
            },
          ],
        }),
      );
    }
    const v = new EditorView({ parent: host.current, state: EditorState.create({ doc: props.value, extensions }) });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // The editor is created once per field; value, aria and read-only are synced below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language, singleLine, templates, mono, minLines, !!props.complete]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const change = minimalChange(v.state.doc.toString(), props.value);
    if (change) v.dispatch({ changes: change, annotations: External.of(true) });
  }, [props.value]);

  useEffect(() => {
    view.current?.dispatch({
      effects: [
        aria.current.reconfigure(EditorView.contentAttributes.of(ariaAttrs())),
        editable.current.reconfigure([
          EditorState.readOnly.of(!!props.readOnly),
          EditorView.editable.of(!props.readOnly),
        ]),
      ],
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.invalid, props.readOnly, props.describedBy, props.labelledBy, props.id]);

  return <div ref={host} data-code-field={props.id} className={props.invalid ? "cm-invalid" : undefined} />;
}
