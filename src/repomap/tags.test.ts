import { describe, expect, it } from "vitest";
import { tagsOf } from "./tags.js";

/** Each definition as `kind name@line (parent)`, the shape these tests compare. */
async function defs(path: string, source: string): Promise<string[]> {
  const tags = await tagsOf(path, source);
  return (tags?.definitions ?? []).map(
    (d) =>
      `${d.kind} ${d.name}@${d.line}${d.parent ? ` (${d.parent}${d.context ? `@${d.context.line}` : ""})` : ""}`,
  );
}

function refs(tags: Awaited<ReturnType<typeof tagsOf>>): Record<string, number> {
  return Object.fromEntries(tags?.references ?? []);
}

describe("tagsOf", () => {
  it("reads a Python class with methods, a function and a module constant", async () => {
    const source = [
      "import os",
      "MAX_ITEMS = 10",
      "lower = 1",
      "class Cart(Base):",
      "    @property",
      "    def total(self):",
      "        return price_of(self.items)",
      "    def add(self, item):",
      "        self.items.append(item)",
      "def price_of(items):",
      "    return len(items)",
      "",
    ].join("\n");
    expect(await defs("shop/cart.py", source)).toEqual([
      "const MAX_ITEMS@2",
      "class Cart@4",
      "method total@6 (Cart@4)",
      "method add@8 (Cart@4)",
      "function price_of@10",
    ]);
    const tags = await tagsOf("shop/cart.py", source);
    expect(tags?.definitions[2]?.signature).toBe("    def total(self):");
    // Uses are counted; a definition's own name is not a use of it.
    expect(refs(tags)).toMatchObject({ Base: 1, price_of: 1, items: 4, os: 1 });
    expect(refs(tags).Cart).toBeUndefined();
    expect(tags?.partial).toBe(false);
    expect(tags?.lines).toBe(12);
  });

  it("reads TypeScript interfaces, classes, functions, arrow functions, types, enums and constants", async () => {
    const source = [
      'import { helper } from "./helper";',
      "export interface Shape {",
      "  area(): number;",
      "  name: string;",
      "}",
      "export class Circle implements Shape {",
      "  area(): number { return helper(this.r); }",
      "}",
      "export function makeCircle(r: number): Circle { return new Circle(r); }",
      "export const double = (n: number) => n * 2;",
      "const LIMIT = 3;",
      "type Id = string;",
      "enum Color { Red }",
    ].join("\n");
    expect(await defs("src/shape.ts", source)).toEqual([
      "interface Shape@2",
      "method area@3 (Shape@2)",
      "class Circle@6",
      "method area@7 (Circle@6)",
      "function makeCircle@9",
      "function double@10",
      "const LIMIT@11",
      "type Id@12",
      "enum Color@13",
    ]);
    expect(refs(await tagsOf("src/shape.ts", source))).toMatchObject({ helper: 2, Shape: 1, Circle: 2 });
  });

  it("reads TSX and JavaScript with their grammars", async () => {
    expect(await defs("ui/App.tsx", "export function App() { return <div>{title}</div>; }\n")).toEqual([
      "function App@1",
    ]);
    expect(
      await defs("lib/x.mjs", "export class Queue { push(x) {} }\nexport const make = () => new Queue();\n"),
    ).toEqual(["class Queue@1", "method push@1 (Queue@1)", "function make@2"]);
  });

  it("reads a Go struct, its method (parent: the receiver type), an interface, a func and constants", async () => {
    const source = [
      "package shop",
      "",
      "const MaxItems, MinItems = 10, 1",
      "",
      "type Cart struct {",
      "\tItems []string",
      "}",
      "",
      "type Store interface {",
      "\tSave(c *Cart) error",
      "}",
      "",
      "func (c *Cart) Add(item string) {",
      "\tc.Items = append(c.Items, item)",
      "}",
      "",
      "func NewCart() *Cart { return &Cart{} }",
    ].join("\n");
    expect(await defs("shop/cart.go", source)).toEqual([
      "const MaxItems@3",
      "const MinItems@3",
      "struct Cart@5",
      "interface Store@9",
      "method Save@10 (Store@9)",
      "method Add@13 (Cart)",
      "function NewCart@17",
    ]);
    expect(refs(await tagsOf("shop/cart.go", source))).toMatchObject({ Cart: 4, Items: 3 });
  });

  it("reads a Rust struct, enum, trait with methods, impls (parent: the type) and functions", async () => {
    const source = [
      "pub struct Point { x: i32 }",
      "pub enum Shape { Dot }",
      "pub trait Area {",
      "    fn area(&self) -> f64;",
      "}",
      "impl Area for Point {",
      "    fn area(&self) -> f64 { 0.0 }",
      "}",
      "impl<T> Wrapper<T> {",
      "    pub fn new() -> Self { todo!() }",
      "}",
      "pub fn total(p: &Point) -> i32 { p.x }",
      "pub const LIMIT: usize = 3;",
      "type Alias = Point;",
      "macro_rules! square { ($x:expr) => { $x * $x } }",
      "mod inner { pub fn helper() {} }",
    ].join("\n");
    expect(await defs("src/geo.rs", source)).toEqual([
      "struct Point@1",
      "enum Shape@2",
      "trait Area@3",
      "method area@4 (Area@3)",
      "method area@7 (Point@6)",
      "method new@10 (Wrapper@9)",
      "function total@12",
      "const LIMIT@13",
      "type Alias@14",
      "macro square@15",
      "module inner@16",
      "function helper@16",
    ]);
    const tags = await tagsOf("src/geo.rs", source);
    expect(tags?.definitions[4]?.context?.signature).toBe("impl Area for Point {");
  });

  it("counts names in code, not in comments or strings (and a Rust lifetime is not a char literal)", async () => {
    const py = await tagsOf(
      "a.py",
      '# call hidden_one here\nx = "hidden_two"\n"""hidden_three"""\nshown_one(x)\n',
    );
    expect(Object.keys(refs(py))).toEqual(["shown_one", "x"]);
    const ts = await tagsOf(
      "a.ts",
      "// hidden_one\n/* hidden_two */ const s = `hidden_three`;\nshown_one(s, 'hidden_four');\n",
    );
    expect(Object.keys(refs(ts))).toEqual(["const", "s", "shown_one"]);
    const rs = await tagsOf("a.rs", "fn pick<'a>(x: &'a str) -> char { shown_one(x); 'q' }\n// hidden_one\n");
    expect(refs(rs)).toMatchObject({ shown_one: 1, x: 2, a: 2 });
    expect(refs(rs).q).toBeUndefined();
    expect(refs(rs).hidden_one).toBeUndefined();
  });

  it("keeps what it can from a file with a syntax error, and marks it partial", async () => {
    const tags = await tagsOf(
      "bad.py",
      "def broken(:\n    pass\n\nclass Fine:\n    def ok(self):\n        pass\n",
    );
    expect(tags?.partial).toBe(true);
    expect(tags?.definitions.map((d) => d.name)).toContain("Fine");
    expect(tags?.definitions.map((d) => d.name)).toContain("ok");
  });

  it("has nothing to say about a file of no supported language", async () => {
    expect(await tagsOf("README.md", "# hello\n")).toBeUndefined();
  });

  it("cuts a very long signature line", async () => {
    const tags = await tagsOf("long.ts", `export const TABLE = [${"1, ".repeat(200)}];\n`);
    expect(tags?.definitions[0]?.signature.length).toBe(161);
    expect(tags?.definitions[0]?.signature.endsWith("…")).toBe(true);
  });
});
