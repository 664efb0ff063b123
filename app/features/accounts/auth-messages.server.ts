import type { AuthMessages } from "~/server/auth/auth.server";
import type { Outbox } from "~/server/messages.server";
import { emailChangedNoticeAfterUpdate, emailChangeIn, type HookContext } from "./email-change.server";
import {
  type Branding,
  existingAccountNotice,
  magicLinkEmail,
  newEmailConfirmation,
  phoneCodeText,
  resetPasswordEmail,
  verificationEmail,
} from "./emails.server";

/** The accounts area's wording of every message Better Auth sends, posted to the outbox. */
export function accountMessages(brand: Branding, outbox: Outbox): AuthMessages {
  return {
    existingAccount: (user) => outbox.sendEmail(existingAccountNotice(brand, user.email, user.name)),
    resetPassword: (user, url) => outbox.sendEmail(resetPasswordEmail(brand, user.email, user.name, url)),
    // A change of address (from /settings) sends its link to the new address.
    verification: (user, url, token) =>
      outbox.sendEmail(
        emailChangeIn(token)
          ? newEmailConfirmation(brand, user.email, user.name, url)
          : verificationEmail(brand, user.email, user.name, url),
      ),
    magicLink: (email, url) => outbox.sendEmail(magicLinkEmail(brand, email, url)),
    phoneCode: (to, code) => outbox.sendSms({ to, text: phoneCodeText(brand.siteName, code) }),
    // Once a change of email is applied, the old address is told (in case it was not them).
    async accountUpdated(user, context) {
      const notice = emailChangedNoticeAfterUpdate(brand, user, context as HookContext);
      if (notice) await outbox.sendEmail(notice);
    },
  };
}
