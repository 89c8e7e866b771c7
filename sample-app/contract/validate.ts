// Validators for the JSON Schemas in this folder, shared by the tests and the acceptance script
// so both check responses against exactly the files kept in the repository.
import { readFileSync } from "node:fs";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";

export const CONTRACT_NAMES = ["meal-scenes", "dishes", "health", "error"] as const;
export type ContractName = (typeof CONTRACT_NAMES)[number];

export function contractPath(name: ContractName): URL {
  return new URL(`./${name}.schema.json`, import.meta.url);
}

/** Returns a checker giving the list of schema violations (empty when the body conforms). */
export function createContractChecker(): (name: ContractName, body: unknown) => string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  const validators = new Map<ContractName, ValidateFunction>();
  for (const name of CONTRACT_NAMES) {
    validators.set(name, ajv.compile(JSON.parse(readFileSync(contractPath(name), "utf8")) as object));
  }
  return (name, body) => {
    const validate = validators.get(name);
    if (!validate) throw new Error(`unknown contract ${name}`);
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
  };
}
