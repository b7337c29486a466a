// Imported first by each entry: marks when the bundle starts running (test/bench/editor reads it).
performance.mark('trajaudit/bundle-start');
