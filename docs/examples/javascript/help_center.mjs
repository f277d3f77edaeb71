// The code under test: the help-center reader in JavaScript, written with @notionhq/client.
// Nothing here knows about the simulator: it takes a Client, which the tests point at
// `notion-lab serve` and production points at api.notion.com.
import { collectPaginatedAPI } from "@notionhq/client";

export async function findDataSource(notion, title) {
  const { results } = await notion.search({ query: title, filter: { property: "object", value: "data_source" } });
  return results.find((source) => source.title.map((run) => run.plain_text).join("") === title);
}

export async function publishedArticles(notion, dataSourceId, { editedSince, pageSize = 100 } = {}) {
  const published = { property: "Published", checkbox: { equals: true } };
  const filter = editedSince
    ? { and: [published, { timestamp: "last_edited_time", last_edited_time: { on_or_after: editedSince } }] }
    : published;
  const rows = await collectPaginatedAPI(notion.dataSources.query, {
    data_source_id: dataSourceId, filter, page_size: pageSize,
  });
  return rows.map((row) => row.properties.Name.title.map((run) => run.plain_text).join("")).sort();
}
