import { frozenBallotList } from "~/features/judging/results.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/results-ballots";

/**
 * `/events/{id}/results/ballots.txt`: the People's Choice ballot list frozen when voting closed,
 * a line per ballot ("id category car"), whose SHA-256 is the commitment on the results page.
 * Never changes once frozen, so anyone may keep it for good.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { db } = context.get(runtimeContext);
  const list = await frozenBallotList(db, params.id, new Date());
  if (!list) notFound("The ballot list is published when voting closes");
  return new Response(list.ballotList, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=31536000, immutable",
      "Access-Control-Allow-Origin": "*",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
