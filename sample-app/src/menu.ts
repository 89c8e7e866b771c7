// Read queries behind the two business endpoints.
import type { Queryable } from "./db.ts";
import type { TimeOfDay } from "./seed-data.ts";

export interface SceneSummary {
  id: string;
  name: string;
  nameZh: string;
  description: string;
  timeOfDay: TimeOfDay;
  dishCount: number;
}

export interface Dish {
  id: string;
  name: string;
  nameZh: string;
  price: number;
  currency: "CNY";
  tags: string[];
  spicy: boolean;
  vegetarian: boolean;
  calories: number;
}

export interface SceneDishes {
  scene: { id: string; name: string };
  dishes: Dish[];
}

/**
 * Scenes that currently have dishes. A scene whose dishes were all removed is not offered, so
 * every listed id gives a non-empty GET /api/dishes (the contract's promise).
 */
export function listScenes(db: Queryable): Promise<SceneSummary[]> {
  return db.query<SceneSummary>(
    `SELECT s.id, s.name, s.name_zh AS "nameZh", s.description, s.time_of_day AS "timeOfDay", count(d.id)::int AS "dishCount"
     FROM meal_scenes s JOIN dishes d ON d.scene_id = s.id
     GROUP BY s.id
     ORDER BY s.sort_order, s.id`,
  );
}

/** The dishes of one scene, or null when the scene is unknown or has no dishes (never an empty list). */
export async function findSceneDishes(db: Queryable, sceneId: string): Promise<SceneDishes | null> {
  const rows = await db.query<Dish & { sceneId: string; sceneName: string }>(
    `SELECT s.id AS "sceneId", s.name AS "sceneName",
            d.id, d.name, d.name_zh AS "nameZh", d.price::float8 AS price, d.currency, d.tags, d.spicy, d.vegetarian, d.calories
     FROM dishes d JOIN meal_scenes s ON s.id = d.scene_id
     WHERE s.id = $1
     ORDER BY d.sort_order, d.id`,
    [sceneId],
  );
  const first = rows[0];
  if (!first) return null;
  return {
    scene: { id: first.sceneId, name: first.sceneName },
    dishes: rows.map(({ sceneId: _sceneId, sceneName: _sceneName, ...d }) => d),
  };
}
