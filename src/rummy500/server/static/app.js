// Entry point: a tiny router over three pages.
//   /            the lobby (create a table)
//   /t/{id}      a table (invite links point here)
//   /#replays    finished games; /#replay/{game_id} steps through one
//   /#rules      how to play

import { renderLobby } from "./lobby.js";
import { renderTable } from "./table.js";
import { renderReplays, renderReplay } from "./replays.js";
import { renderRulesPage } from "./rules.js";

const root = document.getElementById("app");
let teardown = null;
let shown = null; // the page drawn now ("table:ID", "replay:ID", "rules", "replays", "lobby")

/** Which page the address names (a hash naming no page, such as the skip link's #app, is the lobby's). */
function pageOf(path, hash) {
  let m;
  if ((m = path.match(/^\/t\/([^/]+)\/?$/))) return { key: `table:${m[1]}`, draw: () => renderTable(root, decodeURIComponent(m[1])) };
  if ((m = hash.match(/^replay\/(.+)$/))) return { key: `replay:${m[1]}`, draw: () => renderReplay(root, decodeURIComponent(m[1])) };
  if (hash === "rules" || path === "/rules") return { key: "rules", draw: () => renderRulesPage(root) };
  if (hash === "replays" || path === "/replays") return { key: "replays", draw: () => renderReplays(root) };
  return { key: "lobby", draw: () => renderLobby(root) };
}

/**
 * Where the keyboard goes on arriving: the part the hash names (its heading: "Your tables"), else
 * the page's heading (`data-page-heading`, else its h1), else the page itself (#app). A table page
 * draws its heading once its facts come: it moves the focus from #app to it then (table.js).
 */
function arrive(hash) {
  const part = hash && /^[\w-]+$/.test(hash) && hash !== "app" ? document.getElementById(hash) : null;
  const target = (part && (part.querySelector("h2, h1") ?? part))
    ?? root.querySelector("[data-page-heading]") ?? root.querySelector("h1") ?? root;
  if (target !== root && !target.hasAttribute("tabindex")) target.tabIndex = -1;
  target.focus({ preventScroll: !!part });
  if (part) part.scrollIntoView({ block: "start" });
}

function route(moved) {
  const hash = location.hash.replace(/^#\/?/, "");
  const page = pageOf(location.pathname, hash);
  const anchor = hash && hash !== "app" && /^[\w-]+$/.test(hash) ? document.getElementById(hash) : null;
  // A link to a part of the page drawn now (the skip link's #app, Your tables in the lobby): the
  // page is not drawn again (a name typed in the lobby's form stays); the keyboard goes there.
  if (page.key === shown && (hash === "app" || (anchor && root.contains(anchor)))) {
    if (anchor) arrive(hash);
    return;
  }
  if (typeof teardown === "function") teardown();
  teardown = null;
  shown = page.key;
  teardown = page.draw() ?? null;
  // A page load leaves the focus where the browser puts it, unless the hash names a part of the page.
  if (moved || (hash && hash !== "app" && document.getElementById(hash))) arrive(hash);
}

window.addEventListener("popstate", () => route(true));
window.addEventListener("hashchange", () => route(true));
route(false);
