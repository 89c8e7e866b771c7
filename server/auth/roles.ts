/** Roles, from most to least privileged. A token carries one role; so does a user. */
export const ROLES = ["admin", "builder", "annotator", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/**
 * What each role may do. One table, checked by every face (REST, tRPC, pages); documented in the README.
 * - builder.read: node types, recipes, validate (stores nothing), list/get agents and versions
 * - builder.write: create agents, provision versions, delete agents
 * - eval.read / eval.annotate / eval.manage: the evaluation center (later issues)
 * - eval.adjudicate: deciding an item whose reviewers disagree (the adjudicator's verdict is final)
 * - admin: users and API tokens
 */
export const PERMISSIONS = {
  "builder.read": ["admin", "builder", "annotator", "viewer"],
  "builder.write": ["admin", "builder"],
  "eval.read": ["admin", "builder", "annotator", "viewer"],
  "eval.annotate": ["admin", "builder", "annotator"],
  "eval.manage": ["admin", "builder"],
  "eval.adjudicate": ["admin", "builder"],
  admin: ["admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}
