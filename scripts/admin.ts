// `npm run admin -- <command>`: staff accounts from the command line, on the database the server
// uses (DATABASE_URL, or the embedded one in DATA_DIR).
import path from "node:path";
import { parseArgs } from "node:util";
import {
  createStaffAccount,
  listStaff,
  ROLES,
  resetTwoFactor,
  StaffAccountError,
  setRole,
} from "../app/features/accounts/staff.server";
import type { Role } from "../app/server/auth/session.server";
import {
  type DatabaseHandle,
  DataDirLockedError,
  openPglite,
  openPostgres,
  runMigrations,
} from "../app/server/db/client.server";

const usage = `Usage: npm run admin -- <command>

  create --email <address> --role <role> [--name "<name>"] [--password <password>]
      Create a verified account with that role, or give an existing account the role.
      Without --password a strong one is generated and printed once.
  set-role --email <address> --role <role>
      Change the role of an existing account.
  list
      List the organizers and admins.
  reset-two-factor --email <address>
      Turn two-factor sign-in off for an account that lost its phone and recovery codes, and
      sign it out everywhere. Staff are asked to set it up again at their next sign-in.

Roles: ${ROLES.join(", ")}.`;

class UsageError extends Error {}

function parseRole(value: string | undefined): Role {
  if (!value) throw new UsageError("--role is required");
  if (!(ROLES as readonly string[]).includes(value)) {
    throw new UsageError(`--role must be one of ${ROLES.join(", ")} (not "${value}")`);
  }
  return value as Role;
}

function required(value: string | undefined, flag: string) {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

/**
 * The database the server would open, read the way the server reads it. Only these two settings:
 * the rest of the server's configuration (AUTH_SECRET…) is not needed here.
 */
async function openDatabase(): Promise<DatabaseHandle> {
  const url = process.env.DATABASE_URL?.trim();
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error("DATABASE_URL must start with postgres:// or postgresql://");
    return openPostgres(url, 1);
  }
  const dataDir = path.resolve(process.env.DATA_DIR || "./data");
  try {
    return await openPglite(dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new Error(
        `The site is running on the embedded database in ${dataDir}, which only one process can open.\n` +
          "Stop the server (Ctrl+C in its terminal), run this command, then start it again.\n" +
          "Sites on PostgreSQL can run this command while serving: set DATABASE_URL.",
      );
    }
    throw error;
  }
}

async function run(command: string | undefined, args: string[], database: () => Promise<DatabaseHandle>) {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: "string" },
      role: { type: "string" },
      name: { type: "string" },
      password: { type: "string" },
    },
    strict: true,
  });

  switch (command) {
    case "create": {
      const email = required(values.email, "--email");
      const role = parseRole(values.role);
      const db = (await database()).db;
      const result = await createStaffAccount(db, { email, role, name: values.name, password: values.password });
      if (result.kind === "created") {
        console.log(`Created ${result.user.email} (${result.user.name}) with the role ${role}.`);
        if (result.generatedPassword) {
          console.log(`Password: ${result.generatedPassword}`);
          console.log("It is shown only this once: keep it in a password manager, or change it after signing in.");
        }
      } else {
        const change =
          result.previousRole === role
            ? `already had the role ${role}`
            : `now has the role ${role} (was ${result.previousRole})`;
        console.log(`${result.user.email} already had an account and ${change}.`);
        if (values.password) console.log("Its password was not changed.");
      }
      return;
    }
    case "set-role": {
      const email = required(values.email, "--email");
      const role = parseRole(values.role);
      const db = (await database()).db;
      const result = await setRole(db, { email, role });
      console.log(
        result.changed
          ? `${result.user.email} now has the role ${role} (was ${result.previousRole}).`
          : `${result.user.email} already had the role ${role}.`,
      );
      return;
    }
    case "list": {
      const staff = await listStaff((await database()).db);
      if (staff.length === 0) {
        console.log("No organizers or admins yet. Create one with: npm run admin -- create --email … --role admin");
        return;
      }
      const width = Math.max(...staff.map((member) => member.email.length));
      for (const member of staff)
        console.log(`${member.role.padEnd(10)} ${member.email.padEnd(width)}  ${member.name}`);
      return;
    }
    case "reset-two-factor": {
      const email = required(values.email, "--email");
      const user = await resetTwoFactor((await database()).db, { email });
      console.log(`Two-factor sign-in is off for ${user.email}, and every session of it has ended.`);
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command "${command}"` : "Which command?");
  }
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  if (command === "help" || command === "--help" || command === "-h") {
    console.log(usage);
    return 0;
  }
  let handle: DatabaseHandle | undefined;
  const database = async () => {
    handle = await openDatabase();
    await runMigrations(handle);
    return handle;
  };
  try {
    await run(command, args, database);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      console.error(`${(error as Error).message}\n\n${usage}`);
      return 2;
    }
    if (error instanceof StaffAccountError) {
      console.error(error.message);
      return 1;
    }
    console.error(error instanceof Error ? error.message : error);
    return 1;
  } finally {
    await handle?.close();
  }
}

process.exitCode = await main();
