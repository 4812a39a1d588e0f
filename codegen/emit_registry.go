package codegen

// This file emits the package of a registry: its name, URL and the sources
// that the design's agents declare in it.

import (
	"path"

	"github.com/dave/jennifer/jen"
)

// registryFiles returns the files of a registry package.
func registryFiles(r *registryIR) []*genFile {
	dir := path.Join(registriesDir, r.pkg)
	g := newFile(path.Join(dir, "registry.go"), r.pkg)
	f := g.file
	text := "Package " + r.pkg + " names tool registry \"" + r.name + "\""
	if r.description != "" {
		text += ": " + sentence(r.description)
	} else {
		text += "."
	}
	pkgDoc := docFile(dir, r.pkg, packageComment(text, "Connect it with runtime.Runtime.RegisterRegistry(Name, client)."))
	f.Const().Defs(
		doc("Name is the registry name that agents' sources refer to."),
		jen.Id("Name").Op("=").Lit(r.name),
		doc("URL is the registry endpoint."),
		jen.Id("URL").Op("=").Lit(r.url),
	)
	ret := jen.Nil()
	if len(r.sources) > 0 {
		ret = jen.Index().Qual(runtimePkg, "RegistrySource").CustomFunc(multiLine, func(g *jen.Group) {
			for _, s := range r.sources {
				var fields keyed
				fields.set("Registry", jen.Id("Name"))
				if s.toolset != "" {
					fields.set("Toolset", jen.Lit(s.toolset))
				}
				if s.version != "" {
					fields.set("Version", jen.Lit(s.version))
				}
				g.Values(fields...)
			}
		})
	}
	f.Add(doc("Sources returns the distinct sources that the design's agents declare in the registry, sorted by toolset then version; an empty toolset is the whole registry. Deferral belongs to each agent's use and is not set here. Each call returns a fresh slice."))
	f.Func().Id("Sources").Params().Index().Qual(runtimePkg, "RegistrySource").Block(jen.Return(ret))
	return []*genFile{pkgDoc, g}
}
