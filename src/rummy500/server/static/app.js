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

function route() {
  if (typeof teardown === "function") teardown();
  teardown = null;
  const path = location.pathname;
  const hash = location.hash.replace(/^#\/?/, "");
  let m;
  if ((m = path.match(/^\/t\/([^/]+)\/?$/))) {
    teardown = renderTable(root, decodeURIComponent(m[1]));
  } else if ((m = hash.match(/^replay\/(.+)$/))) {
    teardown = renderReplay(root, decodeURIComponent(m[1]));
  } else if (hash === "rules" || path === "/rules") {
    renderRulesPage(root);
  } else if (hash === "replays" || path === "/replays") {
    teardown = renderReplays(root);
  } else {
    renderLobby(root);
  }
}

window.addEventListener("popstate", route);
window.addEventListener("hashchange", route);
route();
