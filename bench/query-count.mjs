// Counts the SQL statements each HTTP request sends to the database, for bench/profile.mjs.
// Loaded into the server process with `--import`; nothing in the app knows about it.
//
//   QUERY_LOG=/path/queries.jsonl [QUERY_LOG_SQL=1] node --import ./bench/query-count.mjs …
//
// Every request the server answers gets a store (AsyncLocalStorage, entered where http.Server
// emits "request"), so a statement is counted against the request whose code sent it however
// the awaits interleave. A statement is one call into the database through Drizzle: a query,
// and a transaction's begin and commit, each a round trip to PostgreSQL or a call into the
// embedded PGlite. Better Auth goes through the same Drizzle instance, so its session lookups
// are counted; the job queue's polling runs outside any request and is left out.
//
// When the response finishes, one JSON line is appended to QUERY_LOG: method, url, status,
// queries, and with QUERY_LOG_SQL=1 the statements themselves (their first 160 characters).
import { AsyncLocalStorage } from "node:async_hooks";
import { appendFileSync } from "node:fs";
import http from "node:http";
import { PgPreparedQuery } from "drizzle-orm/pg-core";
import { PgliteSession } from "drizzle-orm/pglite";

const file = process.env.QUERY_LOG;
const withSql = process.env.QUERY_LOG_SQL === "1";
const requests = new AsyncLocalStorage();

function count(text) {
  const store = requests.getStore();
  if (!store) return;
  store.queries += 1;
  if (withSql) store.sql.push(text.replace(/\s+/g, " ").slice(0, 160));
}

if (file) {
  const queryWithCache = PgPreparedQuery.prototype.queryWithCache;
  PgPreparedQuery.prototype.queryWithCache = function (queryString, params, query) {
    count(queryString);
    return queryWithCache.call(this, queryString, params, query);
  };

  // PGlite runs a transaction's begin and commit (or rollback) itself, outside Drizzle's queries.
  const transaction = PgliteSession.prototype.transaction;
  PgliteSession.prototype.transaction = function (...args) {
    count("begin");
    return transaction.apply(this, args).finally(() => count("commit"));
  };

  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, ...args) {
    if (event !== "request") return emit.call(this, event, ...args);
    const [req, res] = args;
    const store = { queries: 0, sql: [] };
    res.once("finish", () => {
      const line = {
        method: req.method,
        url: req.originalUrl ?? req.url,
        status: res.statusCode,
        queries: store.queries,
      };
      if (withSql) line.sql = store.sql;
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    });
    return requests.run(store, () => emit.call(this, event, ...args));
  };
}
