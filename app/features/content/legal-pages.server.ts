import type { Seeder } from "~/server/seed.server";
import { sitePages } from "../../../db/schema";

// `{{siteName}}` is replaced when the page is shown, so renaming the site needs no edit here.
const privacy = `## Who we are

{{siteName}} is run by a car club and event organiser. We are the controller of the personal
data described here. Contact us through the details in the site footer.

## What we collect and why

| What | Why | Legal basis |
|---|---|---|
| Your name, email address and password (stored only as a secure hash) | To run your account | Contract |
| Your phone number | To verify your identity before you enter paid prize draws | Legal obligation and contract |
| Your date of birth | Prize draws are open only to people aged 18 or over | Legal obligation |
| Orders, tickets, entries and shipping addresses | To deliver what you bought and keep accounting records | Contract and legal obligation |
| Cars and photos you add to your garage | To show them to the audience you choose | Consent, withdrawn by deleting them |
| Marketing preferences | To send news only if you asked for it | Consent |
| Technical logs (IP address, browser) | To keep the site secure and working | Legitimate interest |

Payments are handled by our payment provider; we never see or store your card number.

## How long we keep it

Account data is kept while you have an account. Orders and transactions are kept for six years
for accounting, with your personal details removed if you delete your account. Technical logs
are kept for at most 30 days.

## Your rights

You can download your data or delete your account at any time from your account settings.
You also have the right to ask us to correct or restrict the use of your data, to object to its
use, and to complain to the data protection authority (in the UK, the Information
Commissioner's Office).

## Cookies

We use only the cookies the site needs to work: one that keeps you signed in and one that keeps
your cart. We use no advertising or tracking cookies.
`;

const terms = `## About these terms

These terms apply when you use {{siteName}}, create an account, buy tickets or merchandise, or
enter a prize draw or giveaway. By using the site you agree to them.

## Your account

Keep your password safe and tell us if you think someone else has used your account. You must
give true details. We may suspend accounts that break these terms or the law.

## Tickets

Tickets are for the event, date and ticket type shown. Each ticket carries a unique code that
is checked at the gate; it is valid once. If we cancel an event we refund the ticket price. If
an event is moved, you may ask for a refund before the new date.

## Prize draws and giveaways

Entrants must be 18 or over and live where the draw is open. Each paid draw has a free postal
entry route, described on the draw's page, which has the same chance of winning. Answers to the
skill question must be correct for an entry to count. Winners are drawn by a published,
verifiable method and announced on the draw's page. Full rules are shown on each draw.

## Shop orders

Prices include VAT where it applies. Delivery charges are shown before you pay. You may cancel
an order for goods within 14 days of receiving them and return them unused for a refund.

## Members' content

You keep the rights to photos and text you post, and allow us to show them on the site to the
audience you choose. Do not post anything unlawful, offensive or that you do not have the
rights to. We may remove content that breaks these terms.

## Liability

Motorsport and car events carry risks; follow the organisers' and venues' safety rules. Nothing
in these terms limits liability that cannot be limited by law.
`;

export const legalPagesSeeder: Seeder = {
  name: "legal-pages",
  demo: false,
  async run(db) {
    await db
      .insert(sitePages)
      .values([
        { slug: "privacy", title: "Privacy notice", body: privacy },
        { slug: "terms", title: "Terms and conditions", body: terms },
      ])
      .onConflictDoNothing();
  },
};
