import { publishedRecord } from "~/features/draws/catalogue.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/verify-json";

/** A closed draw's published record, for anyone to check (`npm run verify-draw`, the verify page). */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { db } = context.get(runtimeContext);
  const record = await publishedRecord(db, params.slug);
  if (!record) notFound("This draw has not closed yet, or does not exist");
  return Response.json(record, {
    headers: {
      // A drawn record never changes again; a closed one gains its beacon and winner.
      "Cache-Control": record.seed ? "public, max-age=86400" : "public, max-age=60",
      "Access-Control-Allow-Origin": "*",
    },
  });
}
