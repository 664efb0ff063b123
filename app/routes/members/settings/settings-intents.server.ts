import type { Submission } from "@conform-to/react";
import { data, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import { limitImageUploads } from "~/features/accounts/attempts.server";
import { removeAvatar } from "~/features/accounts/avatar.server";
import { signOutDevice, signOutOtherDevices } from "~/features/accounts/devices.server";
import { getProfile, saveProfile } from "~/features/accounts/profile.server";
import type { SettingsSchema } from "~/features/accounts/schemas";
import {
  requestEmailChange,
  type SettingsCall,
  unlinkSignInMethod,
  updateNotifications,
} from "~/features/accounts/settings.server";
import { deleteAccount } from "~/features/privacy/delete-account.server";
import { runtimeContext, type SessionUser } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { countOf, plural } from "~/ui/plural";
import { accountCall, withinAttemptLimits } from "~/web/account-call.server";

/** What every /settings action needs from the request and the process. */
export function settingsCall(request: Request, context: Readonly<RouterContextProvider>): SettingsCall {
  const { env, storage, outbox } = context.get(runtimeContext);
  return {
    ...accountCall(request, context),
    storage,
    brand: { siteName: env.SITE_NAME, siteUrl: env.SITE_URL },
    outbox,
  };
}

type Settings = z.infer<typeof SettingsSchema>;

const HIDDEN_FIELDS = ["currentPassword", "confirmation"];

/**
 * The /settings action once its form has been validated: runs the intent and answers a
 * redirect with a flash message, or the form's errors.
 */
export async function runSettingsIntent(call: SettingsCall, user: SessionUser, submission: Submission<Settings>) {
  if (submission.status !== "success") throw new Error("runSettingsIntent needs a valid submission");
  const { value } = submission;
  const saved = (message: string) => redirectWithFlash("/settings", { kind: "success", message });
  const refuse = (outcome: { field: string; message: string }) => {
    const errors = outcome.field
      ? { fieldErrors: { [outcome.field]: [outcome.message] } }
      : { formErrors: [outcome.message] };
    return data(
      { intent: value.intent, result: submission.reply({ ...errors, hideFields: HIDDEN_FIELDS }), sentTo: null },
      { status: 400 },
    );
  };

  switch (value.intent) {
    case "profile": {
      if (value.avatar) await withinAttemptLimits(limitImageUploads(call.db, { userId: user.id, ip: call.ip }));
      const current = await getProfile(call.db, user.id);
      // The marketing choice is made in the notifications section of this page.
      const input = { ...value, marketingConsent: current?.marketingConsent ?? false, terms: undefined };
      const outcome = await saveProfile(call.db, call.storage, user.id, input);
      return outcome.ok ? saved("Your profile has been saved.") : refuse(outcome);
    }
    case "remove-avatar":
      await removeAvatar(call.db, call.storage, user.id);
      return saved("Your photo has been removed.");
    case "email": {
      const outcome = await withinAttemptLimits(requestEmailChange(call, user, value));
      if (!outcome.ok) return refuse(outcome);
      return { intent: value.intent, result: submission.reply({ resetForm: true }), sentTo: outcome.sentTo };
    }
    case "notifications":
      await updateNotifications(call.db, user.id, value);
      return saved("Your email preferences have been saved.");
    case "unlink": {
      const outcome = await unlinkSignInMethod(call, user.id, value.accountId);
      return outcome.ok ? saved(`${outcome.name} has been disconnected from your account.`) : refuse(outcome);
    }
    case "sign-out-device": {
      const ended = await signOutDevice(call.db, user.id, value.sessionId, user.sessionId);
      return ended
        ? saved("That device has been signed out.")
        : refuse({ field: "", message: "That sign-in has already ended." });
    }
    case "sign-out-other-devices": {
      const count = await signOutOtherDevices(call.db, user.id, user.sessionId);
      return saved(
        `${countOf(count, "other device", "other devices")} ${plural(count, "has", "have")} been signed out.`,
      );
    }
    case "delete": {
      const outcome = await withinAttemptLimits(deleteAccount(call, user, value));
      if (!outcome.ok) return refuse(outcome);
      const message = "Your account has been deleted.";
      return redirectWithFlash("/", { kind: "success", message }, { headers: outcome.headers });
    }
  }
}
