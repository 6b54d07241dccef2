/**
 * Test and benchmark helper: a report page opened in Debian's Chromium (playwright-core) the way a
 * reader opens it — from file://, with every other request refused and recorded — collecting console
 * errors, page errors and dialogs, so a test can say the page is clean and not just that it loaded.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { CHROMIUM_PATH } from "../cua/index.js";
import { HANG_GUARD_MS } from "../testing/time.js";

export interface OpenedPage {
  page: Page;
  /** Console errors and warnings, uncaught page errors, dialogs, and requests that left file://. */
  problems: string[];
  /** Milliseconds from navigation to the load event. */
  loadMs: number;
}

export interface ReportBrowser {
  open(file: string, hash?: string): Promise<OpenedPage>;
  close(): Promise<void>;
}

export async function reportBrowser(viewport = { width: 1400, height: 1000 }): Promise<ReportBrowser> {
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    timeout: HANG_GUARD_MS,
  });
  return {
    async open(file, hash = "") {
      const page = await browser.newPage({ viewport });
      // Playwright's own 30 s per action is a wall-clock bound a loaded machine can break: the
      // project's hang guard instead.
      page.setDefaultTimeout(HANG_GUARD_MS);
      const problems: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
      });
      page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
      page.on("dialog", (d) => {
        problems.push(`dialog: ${d.message()}`);
        void d.dismiss();
      });
      await page.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith("file:")) return route.continue();
        problems.push(`request left the file: ${url}`);
        return route.abort();
      });
      const started = performance.now();
      await page.goto(`file://${file}${hash}`, { waitUntil: "load" });
      return { page, problems, loadMs: performance.now() - started };
    },
    close: () => browser.close(),
  };
}
