import { data, Link, type MiddlewareFunction, redirect, useParams, useRouteError } from "react-router";
import { hashPassword, insertAccount } from "~/features/accounts/staff.server";
import { applicationFixture } from "~/features/applications/application-fixture.server";
import { startFixtureOrder } from "~/features/checkout/fixture-order.server";
import { communityFixtureCar } from "~/features/community/community-fixture.server";
import { liveFixtureDraw, makeFixtureDrawDue, setEntrantProfile } from "~/features/draws/draw-fixture.server";
import { paidMerchOrderFor } from "~/features/fulfilment/fulfilment-fixture.server";
import { formatOrderNumber } from "~/features/orders/order-number";
import { paidTicketFor } from "~/features/tickets/checkin-fixture.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { whenIdle } from "~/server/jobs/queue.server";
import { steps } from "~/server/middleware.server";
import { ErrorPage } from "~/ui/error-page";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/fixture";

/**
 * Pages that exercise the shell's error and navigation behaviour in end-to-end tests. They
 * exist only when ENABLE_TEST_FIXTURES is set; otherwise every path here is a 404.
 */
const fixturesEnabled: MiddlewareFunction<Response> = ({ context }, next) => {
  if (!context.get(runtimeContext).env.ENABLE_TEST_FIXTURES) notFound();
  return next();
};

const unknownStep = steps("no-such-step")[0]!;

export const middleware: MiddlewareFunction<Response>[] = [
  fixturesEnabled,
  (args, next) => (args.params.fixture === "unknown-middleware" ? unknownStep(args, next) : next()),
];

/**
 * A confirmed, onboarded member, signed in on the browser that posts here: for the specs that
 * need a member but are not about joining. Sign-ups are limited per address (one machine runs
 * the whole suite), so only the specs about joining go through the sign-up form.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  const { auth, db } = context.get(runtimeContext);
  // A live competition of the journey's own (20 entries, 5 each, "5 for £8").
  if (params.fixture === "draw") throw redirect(`/giveaways/${(await liveFixtureDraw(db, new Date())).slug}`);
  // A public car with a private plate and a real photo, owned by a member of its own.
  if (params.fixture === "community-car") {
    const made = await communityFixtureCar(db, context.get(runtimeContext).storage);
    throw redirect(`/community/cars/${made.carId}`);
  }
  // An event taking show-car applications, and a car in the signed-in member's garage.
  if (params.fixture === "application-event") {
    const user = requireUser({ context, url: new URL(request.url) });
    const made = await applicationFixture(db, context.get(runtimeContext).storage, {
      userId: user.id,
      now: new Date(),
    });
    throw redirect(`/events/${made.slug}?event=${made.eventId}`);
  }
  // That draw's closing time moves to now, as if the journey had waited for it.
  if (params.fixture === "draw-due") {
    const slug = new URL(request.url).searchParams.get("slug") ?? "";
    if (!(await makeFixtureDrawDue(db, slug, new Date()))) notFound();
    throw redirect(`/giveaways/${slug}`);
  }
  if (params.fixture !== "member") notFound();
  const form = await request.formData();
  const field = (name: string) => String(form.get(name) ?? "");
  const email = field("email").toLowerCase();
  await insertAccount(db, {
    email,
    name: field("name"),
    role: "member",
    passwordHash: await hashPassword(field("password")),
    profile: { handle: field("handle"), town: field("town") },
  });
  // An entrant for the prize draws: a date of birth and a verified phone, when asked for.
  if (field("dateOfBirth") || field("phone")) {
    await setEntrantProfile(db, email, { dateOfBirth: field("dateOfBirth") || null, phone: field("phone") || null });
  }
  const signedIn = await auth.api.signInEmail({
    body: { email, password: field("password") },
    returnHeaders: true,
  });
  const headers = new Headers();
  for (const cookie of signedIn.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  throw redirect("/members", { headers });
}

export async function loader({ params, url, context }: Route.LoaderArgs) {
  switch (params.fixture) {
    // A pending order for the signed-in member, sent on to its payment page.
    case "pending-order": {
      const user = requireUser({ context, url });
      const { db, env, payments } = context.get(runtimeContext);
      const quantity = Math.min(Math.max(Number(url.searchParams.get("quantity")) || 1, 1), 4);
      const to = await startFixtureOrder(db, payments, {
        userId: user.id,
        email: user.email,
        currency: env.CURRENCY,
        siteUrl: env.SITE_URL,
        quantity,
        now: new Date(),
      });
      if (!to) throw data("No demo tickets are on sale", { status: 409 });
      throw redirect(to);
    }
    // A paid order of demo merch for delivery, for the signed-in member: fulfilment's journey.
    case "merch-order": {
      const user = requireUser({ context, url });
      const { db, env } = context.get(runtimeContext);
      const made = await paidMerchOrderFor(db, {
        userId: user.id,
        email: user.email,
        currency: env.CURRENCY,
        now: new Date(),
      });
      if (!made.ok) throw data(made.problem, { status: 409 });
      throw redirect(`/transactions/${made.orderId}`);
    }
    case "error-with-message":
      throw data("The grid is full", { status: 503 });
    case "error-without-message":
      throw data(null, { status: 500 });
    case "broken-error-page":
      throw data("This error page cannot be drawn", { status: 500 });
    case "slow": {
      const ms = Math.min(Number(url.searchParams.get("ms") ?? 1000), 10_000);
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { fixture: "slow" };
    }
    case "checkin-ticket": {
      const { db, env } = context.get(runtimeContext);
      const made = await paidTicketFor(db, {
        ownEvent: url.searchParams.get("event") === "own",
        currency: env.CURRENCY,
        now: new Date(),
        secret: env.AUTH_SECRET,
      });
      if (!made.ok) throw data(made.problem, { status: 400 });
      return { fixture: "checkin-ticket" as const, ...made };
    }
    // Answers once every job queued so far has run, so a test can then check what was not sent.
    case "jobs-idle": {
      await whenIdle(context.get(runtimeContext).database, { timeoutMs: 20_000 });
      return { fixture: "jobs-idle" as const };
    }
    case "long":
    case "unknown-middleware":
      return { fixture: params.fixture };
    default:
      notFound();
  }
}

export default function Fixture({ loaderData }: Route.ComponentProps) {
  if ("code" in loaderData) {
    return (
      <main id="main" className="mx-auto max-w-[1200px] px-4 py-16 sm:px-6">
        <h1 className="text-3xl font-bold">Paid ticket</h1>
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
          <dt>Ticket code</dt>
          <dd data-testid="ticket-code">{loaderData.code}</dd>
          <dt>QR code holds</dt>
          <dd data-testid="ticket-qr">{loaderData.qrPayload}</dd>
          <dt>Order</dt>
          <dd data-testid="order-id">{loaderData.orderId}</dd>
          <dt>Order number</dt>
          <dd data-testid="order-number">{formatOrderNumber(loaderData.orderNumber)}</dd>
          <dt>Event</dt>
          <dd data-testid="event-id">{loaderData.eventId}</dd>
          <dt>Buyer</dt>
          <dd data-testid="buyer-email">{loaderData.buyerEmail}</dd>
        </dl>
      </main>
    );
  }
  if (loaderData.fixture === "jobs-idle") {
    return (
      <main id="main" className="mx-auto max-w-[1200px] px-4 py-16 sm:px-6">
        <h1 className="text-3xl font-bold">No job is waiting or running</h1>
      </main>
    );
  }
  if (loaderData.fixture === "slow") {
    return (
      <main id="main" className="mx-auto max-w-[1200px] px-4 py-16 sm:px-6">
        <h1 className="text-3xl font-bold">Slow page loaded</h1>
      </main>
    );
  }
  return (
    <main id="main" className="mx-auto max-w-[1200px] px-4 py-16 sm:px-6">
      <h1 className="text-3xl font-bold">A long page</h1>
      <p className="mt-4">
        <Link to="/dev/fixtures/long#lap-3">Jump to lap 3</Link> · <Link to="/privacy">Privacy</Link> ·{" "}
        <Link to="/dev/fixtures/slow?ms=1500">Slow page</Link> · <Link to="/dev/fixtures/slow?ms=20">Quick page</Link> ·{" "}
        <Link to="/dev/fixtures/slow?ms=4000">Very slow page</Link>
      </p>
      {[1, 2, 3, 4].map((lap) => (
        <section key={lap} id={`lap-${lap}`} className="min-h-[120vh] border-t border-line pt-8">
          <h2 className="text-2xl font-bold">Lap {lap}</h2>
        </section>
      ))}
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data }) => [
  {
    title:
      data?.fixture === "slow"
        ? "Slow page"
        : data?.fixture === "checkin-ticket"
          ? "Paid ticket"
          : data?.fixture === "jobs-idle"
            ? "Job queue idle"
            : "A long page",
  },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  const error = useRouteError();
  const { fixture } = useParams();
  if (fixture === "broken-error-page") throw new Error("The error page failed too");
  return <ErrorPage error={error} />;
}
