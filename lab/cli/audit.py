"""``audit``: each integration's roots and the pages it can see, with drafts and private pages flagged."""

from __future__ import annotations

import argparse

from lab.cli.exits import CommandFailure, ExitCode, WaitTooLong
from lab.cli.options import RATE, SECONDS, AnnouncedRetry, base_url, not_blank, token_from_env
from lab.clock import WallClock
from lab.errors import LabError
from lab.redaction import redact

__all__ = ["add_audit_parser", "audit_command"]


def audit_command(args: argparse.Namespace) -> int:
    """List, per integration, its roots and the pages it can see; flag drafts and private pages."""
    from lab.client import FixedRate, NoPacing, NotionClient
    from lab.ingest.permission_audit import audit_integrations, audit_summary, integration_label, roots_table

    if args.simulator:
        from lab.simulator import in_process_session
        from lab.simulator.workspaces import bakery_simulator

        sim = bakery_simulator(seed=0)
        tokens = [sim.token_for(key) for key in sorted(sim.workspace.integrations)]
        where, clients = "the simulated bakery workspace", [
            NotionClient(token, session=in_process_session(sim), clock=sim.clock, pacer=NoPacing())
            for token in tokens]
    else:
        tokens = [token_from_env(name) for name in dict.fromkeys(args.token_env or ["NOTION_TOKEN"])]
        retry = AnnouncedRetry(max_wait=args.max_wait, say=lambda line: print(line, flush=True))
        where, clients = args.base_url, [NotionClient(token, base_url=args.base_url, clock=WallClock(),
                                                      pacer=FixedRate(args.rate), retry=retry) for token in tokens]
    try:
        labelled = {integration_label(client): client for client in clients}
        audit = audit_integrations(labelled, args.publishable_property)
        roots = roots_table(labelled)
    except WaitTooLong as exc:
        raise CommandFailure(ExitCode.WAIT, str(exc)) from None
    except (LabError, LookupError) as exc:
        raise CommandFailure(ExitCode.FAILED, redact(str(exc), *tokens)) from None
    print(f"permission audit of {where}: {len(labelled)} integration(s); a flagged page is visible but not "
          "publishable")
    for row in audit_summary(audit, roots).itertuples(index=False):
        print(f"  {row.integration}: sees {row.visible} pages, {row.publishable} publishable, {row.drafts} drafts, "
              f"{row.private} private")
        print(f"    roots: {row.roots or '(none)'}")
        shown = audit[(audit["integration"] == row.integration) & (args.all | (audit["flag"] != ""))]
        for page in shown.itertuples():
            print(f"    {page.flag or 'ok':<8}{page.title}  ({page.reason}; {page.page_id})")
    return ExitCode.OK


def add_audit_parser(sub: argparse._SubParsersAction) -> None:
    audit = sub.add_parser("audit", help="list each integration's roots and the pages it can see, and flag "
                                         "those it should not")
    audit.add_argument("--simulator", action="store_true",
                       help="audit every integration of the simulated bakery workspace (no token needed)")
    audit.add_argument("--base-url", type=base_url, default="https://api.notion.com",
                       help="API host without /v1 (default: the real Notion API)")
    audit.add_argument("--token-env", type=not_blank, action="append", default=None, metavar="NAME",
                       help="environment variable holding an integration's token; repeat it to audit several "
                            "(default NOTION_TOKEN)")
    audit.add_argument("--publishable-property", default="Publicable", help="checkbox that marks indexable pages")
    audit.add_argument("--all", action="store_true", help="list every visible page, not only the flagged ones")
    audit.add_argument("--rate", type=RATE, default=3.0, help="requests per second (default 3)")
    audit.add_argument("--max-wait", type=SECONDS, default=300.0,
                       help="give up at once if the server asks to wait longer than this, in seconds (default 300)")
    audit.set_defaults(func=audit_command)
