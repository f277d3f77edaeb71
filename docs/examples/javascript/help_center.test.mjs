// The help-center reader against the lab's simulator, started the way LocalStack is: one command.
//   npm ci && npm test        (with `notion-lab` on PATH, or NOTION_LAB set to its path)
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { APIErrorCode, APIResponseError, Client, LogLevel } from "@notionhq/client";
import { findDataSource, publishedArticles } from "./help_center.mjs";

const WORKSPACE = new URL("../python/notion_workspace.json", import.meta.url).pathname;
let server, baseUrl;
const tokens = {};

before(async () => {
  // --port 0 lets the system pick a free port; the banner says where, and each integration's token.
  server = spawn(process.env.NOTION_LAB ?? "notion-lab", ["serve", "--port", "0", "--workspace", WORKSPACE],
    { stdio: ["ignore", "pipe", "inherit"] });
  for await (const line of createInterface({ input: server.stdout })) {
    baseUrl ??= line.match(/ at (http:\/\/\S+)/)?.[1];
    const integration = line.match(/\((\S+)\): token (ntn_\w+)/);
    if (integration) tokens[integration[1]] = integration[2];
    if (line.startsWith("Use base_url")) break;
  }
});

after(async () => {
  server.kill("SIGTERM");
  await once(server, "exit");
});

test("published articles follow every cursor and leave the draft out", async () => {
  const notion = new Client({ auth: tokens["support-bot"], baseUrl });
  const helpCenter = await findDataSource(notion, "Help center");
  assert.deepEqual(await publishedArticles(notion, helpCenter.id, { pageSize: 2 }),
    ["Delivery times", "Invoices", "Refunds", "Resetting a password"]);
});

test("a timestamp filter keeps what was edited since", async () => {
  const notion = new Client({ auth: tokens["support-bot"], baseUrl });
  const helpCenter = await findDataSource(notion, "Help center");
  assert.deepEqual(await publishedArticles(notion, helpCenter.id, { editedSince: "2026-03-01T00:00:00.000Z" }),
    ["Refunds", "Resetting a password"]);
});

test("a page that is not shared is a typed object_not_found error", async () => {
  const finance = new Client({ auth: tokens["finance-bot"], baseUrl });
  const [salaries] = (await finance.search({ query: "Salaries" })).results;
  const support = new Client({ auth: tokens["support-bot"], baseUrl, logLevel: LogLevel.ERROR });
  await assert.rejects(support.pages.retrieve({ page_id: salaries.id }), (error) =>
    error instanceof APIResponseError && error.code === APIErrorCode.ObjectNotFound && error.status === 404);
});
