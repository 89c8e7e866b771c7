"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "@/lib/trpc";
import { useCursorPages } from "../use-cursor-pages";

export const SAMPLES_PAGE = 50;

/** A version's set and a page of its samples (cursor pages, the URL's search `q`; back to page 1 when either changes). */
export function useVersionSamples(setId: string, version: number, q: string | undefined) {
  const trpc = useTRPC();
  const pages = useCursorPages();
  const set = useQuery(trpc.eval.sets.get.queryOptions({ id: setId }));
  const cursor = pages.cursor;
  const samples = useQuery({
    ...trpc.eval.samples.list.queryOptions({
      id: setId,
      version,
      query: { limit: SAMPLES_PAGE, ...(cursor ? { cursor } : {}), ...(q ? { q } : {}) },
    }),
    placeholderData: keepPreviousData,
  });
  const { reset } = pages;
  useEffect(() => reset(), [q, setId, version, reset]);
  return { set, samples, pages };
}
