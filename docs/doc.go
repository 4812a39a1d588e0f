// Package docs holds the project's documentation (the Markdown files of this
// directory) and the test that keeps its Go snippets true: every Go block of
// a page other than guide.md (whose files TestUserModule builds whole in a
// new module) is code of a Go file of the repository that the build or the
// tests compile, shown in order, with "// ..." lines and "/* ... */" marking
// what a snippet leaves out.
package docs
