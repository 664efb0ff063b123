import pg from "pg";

/**
 * Statements with parameters become named, prepared statements on each connection: PostgreSQL
 * parses and analyses a statement's text once per connection instead of on every call, and the
 * driver sends a shorter message. What the app sends is a fixed set of texts (values always
 * travel as parameters), so each text gets a name the first time it is seen, up to
 * MAX_NAMED_STATEMENTS per process; past that, statements are sent unnamed as before.
 *
 * PostgreSQL then decides how to plan each execution (`plan_cache_mode`, left at its default,
 * `auto`): the first five executions on a connection are planned with their own values, and after
 * that a statement keeps one plan for any values unless that plan is costlier than the ones made
 * for values, as it is where a partial index or a skewed column matters. The foreign-key checks
 * of every insert are planned the same way. A statement without parameters (DDL, migrations,
 * BEGIN) is left unnamed, so it may still hold several commands. PostgreSQL re-plans a prepared
 * statement by itself when a table it reads changes, so migrations run beside it
 * (docs/deploy.md).
 */
const MAX_NAMED_STATEMENTS = 2_000;

const names = new Map<string, string>();

function nameOf(text: string) {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
    name = `pitlane_${names.size.toString(36)}`;
    names.set(text, name);
  }
  return name;
}

type QueryConfig = { text?: unknown; name?: unknown; values?: unknown };

/** A node-postgres client that names its parameterised statements (pass as the pool's `Client`). */
export class PreparingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: the driver's query() is heavily overloaded; this forwards every form.
  override query(config: any, values?: any, callback?: any): any {
    const named = withName(config, values);
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    return (super.query as any)(named, values, callback);
  }
}

function withName(config: unknown, values: unknown) {
  if (typeof config === "string") {
    if (!Array.isArray(values) || values.length === 0) return config;
    const name = nameOf(config);
    return name ? { text: config, name } : config;
  }
  if (!config || typeof config !== "object") return config;
  const query = config as QueryConfig;
  const parameters = Array.isArray(values) ? values : query.values;
  if (typeof query.text !== "string" || query.name || !Array.isArray(parameters) || parameters.length === 0) {
    return config;
  }
  const name = nameOf(query.text);
  return name ? { ...query, name } : config;
}
