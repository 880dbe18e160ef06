import type { Snippet } from "../snippet";

// Races between timers keep wide margins (1.5 s against 10 ms): under load both timers of a race can
// be due at once, and then workerd may fire them in the order they were made, not by their delay.
import async from "./async";
import builtins from "./builtins";
import classes from "./classes";
import collation from "./collation";
import collections from "./collections";
import dataProcessing from "./data-processing";
import dataProcessing2 from "./data-processing-2";
import dates from "./dates";
import errors from "./errors";
import intl from "./intl";
import json from "./json";
import math from "./math";
import numbers from "./numbers";
import regex from "./regex";
import strings from "./strings";
import typedArrays from "./typed-arrays";
import urlEncoding from "./url-encoding";

/** Every snippet of the engine-fidelity corpus, category by category. */
export const CORPUS: Snippet[] = [
  ...numbers,
  ...dates,
  ...strings,
  ...collation,
  ...intl,
  ...regex,
  ...collections,
  ...json,
  ...errors,
  ...async,
  ...typedArrays,
  ...urlEncoding,
  ...builtins,
  ...dataProcessing,
  ...dataProcessing2,
  ...math,
  ...classes,
];
