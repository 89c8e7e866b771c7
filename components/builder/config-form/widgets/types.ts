/** What every widget of the config form receives, and the text of a value shown in a text control. */
import type { CompleteFn } from "../code-field";
import type { FieldDescriptor } from "../form-model";

export interface WidgetProps {
  field: FieldDescriptor;
  /** DOM id of the control (labels point at it). */
  id: string;
  labelId: string;
  describedBy?: string;
  invalid: boolean;
  value: unknown;
  onChange: (value: unknown) => void;
  readOnly: boolean;
  complete?: CompleteFn;
}

export function asText(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}
