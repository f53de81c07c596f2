// Renders the /docs page (HTML on stdin) in jsdom with its scripts and
// prints what rendered as JSON: the operations, per operation its request
// field names and response codes, and what a filter leaves visible. The
// page must need no network: jsdom loads no resources here.
import { JSDOM, VirtualConsole } from "jsdom";

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const html = Buffer.concat(chunks).toString("utf8");

const errors = [];
const vc = new VirtualConsole();
vc.on("jsdomError", (e) => errors.push(String(e && e.message ? e.message : e)));
vc.on("error", (e) => errors.push(String(e)));
const dom = new JSDOM(html, { runScripts: "dangerously", virtualConsole: vc, url: "http://gateway.invalid/docs" });
const { document } = dom.window;

const ops = [...document.querySelectorAll("section.op")].map((s) => ({
  id: s.id,
  path: s.getAttribute("data-path"),
  title: s.querySelector("h3").textContent,
  fields: [...s.querySelectorAll("table:not(.errors) td:first-child code")].map((c) => c.textContent),
  codes: [...s.querySelectorAll("table.errors tr td:first-child")].map((c) => c.textContent),
}));
const nav = document.querySelectorAll("nav a").length;

const input = document.getElementById("filter");
input.value = "memory/search";
input.dispatchEvent(new dom.window.Event("input"));
const visible = [...document.querySelectorAll("section.op:not(.hidden)")].map((s) => s.getAttribute("data-path"));

process.stdout.write(JSON.stringify({ ops, nav, visible, errors, title: document.getElementById("title").textContent }));
