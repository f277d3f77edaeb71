// @notionhq/client 2.3.0, the last release of the oldest major that sends Notion-Version 2022-06-28 (the
// version most code in use still sends), installed beside 5.26.0 under the npm alias "notionhq-client-2".
// Built with auth and baseUrl only, it reads the workspace the way code written for it does: a database
// and its query, search, a page and its blocks, and an error; each answer is held against the spec.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { APIErrorCode, APIResponseError, Client, collectPaginatedAPI, iteratePaginatedAPI } from "notionhq-client-2";

const WORKSPACE = new URL("../python/notion_workspace.json", import.meta.url).pathname;
const spec = JSON.parse(readFileSync(WORKSPACE, "utf8"));
const plain = (runs) => runs.map((run) => run.plain_text).join("");
const specText = (text) => (typeof text === "string" ? text : (text ?? []).map((run) => run.text).join(""));
const rowsOf = (source) =>
  spec.pages.filter((page) => page.parent?.type === "data_source" && page.parent.key === source);
let server, baseUrl;
const tokens = {};

before(async () => {
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

async function helpCenter(notion) {
  const { results } = await notion.search({ filter: { property: "object", value: "database" } });
  assert.equal(results.length, 1);
  return results[0];
}

test("2.x sends 2022-06-28 and queries the database across every cursor", async () => {
  assert.equal(Client.defaultNotionVersion, "2022-06-28");
  const notion = new Client({ auth: tokens["support-bot"], baseUrl });
  const found = await helpCenter(notion);
  const database = await notion.databases.retrieve({ database_id: found.id });
  assert.equal(plain(database.title), "Help center");
  assert.deepEqual(Object.keys(database.properties).sort(), ["Category", "Name", "Published"]);
  assert.equal(database.archived, false);
  const rows = await collectPaginatedAPI(notion.databases.query, { database_id: database.id, page_size: 2 });
  assert.deepEqual(rows.map((row) => plain(row.properties.Name.title)).sort(),
    rowsOf("help-center").map((page) => page.title).sort());  // 5 rows: 2 a request, every cursor followed
  assert.ok(rows.every((row) => row.parent.type === "database_id" && row.parent.database_id === database.id));
});

test("2.x searches pages across every cursor and finds only what was shared", async () => {
  const notion = new Client({ auth: tokens["support-bot"], baseUrl });
  const pages = await collectPaginatedAPI(notion.search, { filter: { property: "object", value: "page" },
    page_size: 2 });
  const shared = spec.pages.filter((page) => page.key !== "salaries").map((page) => page.title);
  assert.deepEqual(pages.map((page) => plain(page.properties.Name?.title ?? page.properties.title.title)).sort(),
    shared.sort());
});

test("2.x reads a page and lists its blocks across every cursor", async () => {
  const notion = new Client({ auth: tokens["support-bot"], baseUrl });
  const database = await helpCenter(notion);
  const { results: [row] } = await notion.databases.query({ database_id: database.id,
    filter: { property: "Name", title: { equals: "Refunds" } } });
  const page = await notion.pages.retrieve({ page_id: row.id });
  assert.equal(plain(page.properties.Name.title), "Refunds");
  assert.deepEqual(page.parent, { type: "database_id", database_id: database.id });
  assert.deepEqual([page.archived, page.in_trash], [false, false]);  // both names, as Notion sends since 2024
  const blocks = [];
  for await (const block of iteratePaginatedAPI(notion.blocks.children.list, { block_id: page.id, page_size: 2 })) {
    blocks.push([block.type, plain(block[block.type].rich_text)]);
  }
  const refunds = spec.pages.find((entry) => entry.key === "refunds");
  assert.deepEqual(blocks, refunds.blocks.map((block) => [block.type, specText(block.text)]));  // 6 blocks
});

test("2.x gets a page that is not shared as its APIResponseError object_not_found", async () => {
  const finance = new Client({ auth: tokens["finance-bot"], baseUrl });
  const [salaries] = (await finance.search({ query: "Salaries" })).results;
  const support = new Client({ auth: tokens["support-bot"], baseUrl });
  await assert.rejects(support.pages.retrieve({ page_id: salaries.id }), (error) =>
    error instanceof APIResponseError && error.code === APIErrorCode.ObjectNotFound && error.status === 404);
});
