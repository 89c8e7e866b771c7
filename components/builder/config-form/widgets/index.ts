/** Widget renderers for the generic config form, one file per `x-widget` of the contract. */
export { TextWidget } from "./text";
export { TemplateWidget } from "./template";
export { CelWidget } from "./cel";
export { PythonWidget } from "./python";
export { NumberWidget } from "./number";
export { SelectWidget } from "./select";
export { NodeRefWidget } from "./node-ref";
export { KvWidget } from "./kv";
export { JsonWidget } from "./json";
export { StartOutputsWidget, parseDefault } from "./start-outputs";
export type { WidgetProps } from "./types";
