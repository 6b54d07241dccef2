import type { Project } from "./projects.js";

/** For go test -json ./...: one package with every outcome, one that panics, one that does not
 * build, one whose test binary dies in init before any test. */
export const GO_TESTS: Project = {
  files: {
    "go.mod": "module example.com/acilab\n\ngo 1.19\n",
    "calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
    "calc/calc_test.go": `package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(1, 1) != 2 {
		t.Fatal("bad")
	}
}

func TestBroken(t *testing.T) { t.Errorf("one is not two") }

func TestSkip(t *testing.T) { t.Skip("not today") }

func TestTable(t *testing.T) {
	cases := []struct {
		name    string
		a, want int
	}{{"one", 1, 2}, {"two words", 2, 5}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if Add(c.a, c.a) != c.want {
				t.Errorf("Add(%d, %d)", c.a, c.a)
			}
		})
	}
}
`,
    "crash/crash_test.go": `package crash

import "testing"

func TestFine(t *testing.T) {}

func TestPanics(t *testing.T) {
	var m map[string]int
	m["x"] = 1
}
`,
    "broken/broken.go": 'package broken\n\nfunc Oops() int { return "x" }\n',
    "broken/broken_test.go": 'package broken\n\nimport "testing"\n\nfunc TestNever(t *testing.T) {}\n',
    "initfail/initfail_test.go": `package initfail

import "testing"

func init() { panic("init broke") }

func TestUnreached(t *testing.T) {}
`,
  },
  expected: {
    TestAdd: "PASSED",
    TestBroken: "FAILED",
    TestSkip: "SKIPPED",
    "TestTable/one": "PASSED",
    "TestTable/two_words": "FAILED",
    TestTable: "FAILED",
    TestFine: "PASSED",
    TestPanics: "FAILED",
    "example.com/acilab/broken": "ERROR",
    "example.com/acilab/initfail": "ERROR",
  },
  absent: ["TestNever", "TestUnreached", "example.com/acilab/calc"],
  ran: true,
};

const CARGO_TOML =
  '[package]\nname = "acilab_fixture"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n';

/** For cargo test: unit tests, an integration test binary and doc-tests, each with a failure. */
export const CARGO_TESTS: Project = {
  files: {
    "Cargo.toml": CARGO_TOML,
    "src/lib.rs": `/// Adds two numbers.
///
/// \`\`\`
/// assert_eq!(acilab_fixture::add(1, 1), 2);
/// \`\`\`
///
/// \`\`\`
/// assert_eq!(acilab_fixture::add(1, 1), 3);
/// \`\`\`
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn adds() { assert_eq!(add(1, 1), 2); }
    #[test]
    fn breaks() { assert_eq!(add(1, 1), 3, "one plus one"); }
    #[test]
    #[ignore]
    fn slow() {}
    #[test]
    #[ignore = "needs network"]
    fn net() {}
    #[test]
    #[should_panic]
    fn panics_as_expected() { panic!("boom"); }
    #[test]
    fn prints_and_panics() { println!("noise"); eprint!("partial line "); panic!("mid"); }
}
`,
    "tests/integration.rs": `#[test]
fn it_works() { assert!(acilab_fixture::add(2, 2) == 4); }
#[test]
fn it_fails() { assert!(acilab_fixture::add(2, 2) == 5); }
`,
  },
  expected: {
    "tests::adds": "PASSED",
    "tests::breaks": "FAILED",
    "tests::slow": "SKIPPED",
    "tests::net": "SKIPPED",
    "tests::panics_as_expected": "PASSED",
    "tests::prints_and_panics": "FAILED",
    it_works: "PASSED",
    it_fails: "FAILED",
    "src/lib.rs - add (line 3)": "PASSED",
    "src/lib.rs - add (line 7)": "FAILED",
  },
  absent: ["tests::panics_as_expected - should panic"],
  ran: true,
};

/** A crate whose tests do not compile: no test runs, and nothing may say otherwise. */
export const CARGO_COMPILE_ERROR: Project = {
  files: {
    "Cargo.toml": CARGO_TOML,
    "src/lib.rs":
      'pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[test]\nfn adds() { assert_eq!(add(1, "1"), 2); }\n',
  },
  expected: {},
  absent: ["adds"],
  ran: false,
};
