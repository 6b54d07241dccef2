# The two commands: `make demo` and `make test`. Both bootstrap a fresh machine first.
.PHONY: demo test build bootstrap bench clean

bootstrap:
	@bash scripts/bootstrap.sh

build: bootstrap
	@npm run --silent build

demo: build
	@node bin/acilab.js suite --policy auto --out runs/demo --fresh

test: build
	@npm run --silent typecheck
	@npm run --silent lint
	@npm run --silent test:all

bench: build
	@npm run --silent bench

clean:
	rm -rf dist runs
