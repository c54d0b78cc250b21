import type { Response } from "express";
import { HttpProblem } from "./errors.js";

/**
 * App-level answers that no route gives: the page for a path the server does not route, and the
 * answer to a request that ran out of its time budget.
 */

/**
 * Django resolves the URL before any view, authentication or body parsing runs. A path no pattern
 * matches gets `django.views.defaults.page_not_found` (Label Studio's `core/urls.py` sets no
 * `handler404`, and its settings run with DEBUG off), which renders the `404.html` template of
 * `label_studio/templates` as `text/html`: the same page for `/api/…` paths and any other, for
 * every method, with or without credentials. This is a stand-in for that page (same title and
 * heading; the real one also loads the server's stylesheets and images).
 */
export const NOT_FOUND_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>404 | Label Studio</title>
</head>
<body>
<div class="ls-global-error">
  <h1>Server error</h1>
  <h2>404 Not Found</h2>
</div>
</body>
</html>
`;

export function sendNotFoundPage(res: Response): void {
  res.status(404).type("text/html; charset=utf-8").send(NOT_FOUND_PAGE);
}

/** DRF's `ServiceUnavailable` (its default text), which the server's exception handler wraps. */
export const TIME_LIMIT_DETAIL = "Service temporarily unavailable, try again later.";

/** The answer to a request past its time budget: nothing it did is kept. */
export function timeLimitProblem(): HttpProblem {
  return new HttpProblem(503, TIME_LIMIT_DETAIL);
}
