//! Tests of re-solving: filled in below.
