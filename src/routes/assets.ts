// The apps' scripts and stylesheet (src/web/assets), served by this Worker under /assets.
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { notFound } from "../errors";
import { ASSETS, isAssetName } from "../web/assets/manifest";
import { strictPolicy } from "../web/csp";

export const assetRoutes = new Hono<AppEnv>();

assetRoutes.get("/:name", strictPolicy, (c) => {
  const name = c.req.param("name");
  if (!isAssetName(name)) throw notFound("Asset");
  const asset = ASSETS[name];
  return c.body(asset.body, 200, {
    "Content-Type": asset.type,
    // The URL carries a content hash (assetPath), so the file behind it never changes.
    "Cache-Control": "public, max-age=31536000, immutable",
  });
});
