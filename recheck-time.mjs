import { checkSync, check } from "recheck";
const pats = ["^\\s*[+-]?\\d+\\s*$", "^(a+)+$", "^\\s+|\\s+$", "[a-z]+@[a-z]+\\.com", "^(?:[A-Za-z_][\\w.]*)$"];
let t = performance.now();
for (let i = 0; i < 40; i++) checkSync(pats[i % pats.length] + "x".repeat(i), "", { checker: "automaton", timeout: null });
console.log("sync 40", (performance.now() - t).toFixed(0), "ms");
t = performance.now();
for (let i = 0; i < 40; i++) await check(pats[i % pats.length] + "y".repeat(i), "", { checker: "automaton", timeout: null });
console.log("async 40", (performance.now() - t).toFixed(0), "ms");
