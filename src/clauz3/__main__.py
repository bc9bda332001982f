from clauz3.cli import main

raise SystemExit(main())
