/** The "?" help popovers that replace long explanations: closed at first, opened and closed by keyboard and pointer. */
import { expect, test } from "@playwright/test";

test("the recovery board's explanation opens with Enter, closes with Escape, and comes back by pointer", async ({ page }) => {
  await page.goto("/recovery");
  await expect(page.getByText("Every unfinished run, what it waits for, and how to unblock it.")).toBeVisible();
  const body = page.getByRole("note", { name: "About recovery" });
  await expect(body).toBeHidden();
  const help = page.getByTitle("About recovery");
  await help.focus();
  await page.keyboard.press("Enter");
  await expect(body).toBeVisible();
  await expect(body).toContainText("a pause counts as recovered");
  await page.keyboard.press("Escape");
  await expect(body).toBeHidden();
  await expect(help).toBeFocused();
  await help.click();
  await expect(body).toBeVisible();
  await page.getByRole("heading", { name: "Recovery", level: 1 }).click();
  await expect(body).toBeHidden();
});

test("the session page says its rule in one line, the details behind the ?", async ({ page }) => {
  await page.goto("/sessions/ticket-booking");
  const rule = page.getByRole("complementary", { name: "How session state is rebuilt" });
  await expect(rule).toContainText("State is rebuilt only from persisted deltas.");
  await expect(rule.getByText("ReadOnlyStateError")).toBeHidden();
  await rule.getByTitle("Why state is rebuilt from deltas").click();
  await expect(rule.getByText("ReadOnlyStateError")).toBeVisible();
});
