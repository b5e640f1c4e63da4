module paletted/adapter-go-mc

go 1.22

require (
	github.com/Tnze/go-mc v1.20.2
	paletted/adapterkit v0.0.0
)

require github.com/google/uuid v1.3.0 // indirect

replace paletted/adapterkit => ../kits/go
