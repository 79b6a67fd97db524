package profile

import "testing"

// TestShardsCoverTheLoad: the shards of a load hold every request index exactly once, and their
// parts of a total add up to it, the remainder on the lowest indexes.
func TestShardsCoverTheLoad(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{10, 3}, {3, 3}, {2, 3}, {1000, 7}, {5, 1}} {
		seen := make([]int, tc.n)
		split := 0
		for i := 0; i < tc.k; i++ {
			s := Shard{Index: i, Count: tc.k}
			for j := int64(0); j < s.Len(int64(tc.n)); j++ {
				seen[s.Global(j)]++
			}
			split += s.Split(tc.n)
			if want := tc.n / tc.k; s.Split(tc.n) != want && (i >= tc.n%tc.k || s.Split(tc.n) != want+1) {
				t.Errorf("n %d k %d: shard %d splits %d", tc.n, tc.k, i, s.Split(tc.n))
			}
		}
		for g, c := range seen {
			if c != 1 {
				t.Fatalf("n %d k %d: request %d is in %d shards", tc.n, tc.k, g, c)
			}
		}
		if split != tc.n {
			t.Errorf("n %d k %d: the shards' parts add up to %d", tc.n, tc.k, split)
		}
	}
	if (Shard{}).Len(7) != 7 || (Shard{}).Global(5) != 5 {
		t.Fatal("the zero Shard is not the whole load")
	}
}
